import { type ReactNode, useRef, useState } from 'react';
import { Button } from '../components/Button';

type CopyState = 'idle' | 'copied' | 'failed';

interface SecretNoticeProps {
  title: string;
  /** What to do with the secret; it is shown once. */
  children: ReactNode;
  secret: string;
  testId: string;
  onDismiss: () => void;
}

/** A secret the server returns once (an API token, a one-time password), with a way to copy it. */
export function SecretNotice({ title, children, secret, testId, onDismiss }: SecretNoticeProps) {
  const secretRef = useRef<HTMLElement>(null);
  const [copyState, setCopyState] = useState<CopyState>('idle');

  function selectSecret() {
    const element = secretRef.current;
    const selection = window.getSelection();
    if (element && selection) {
      const range = document.createRange();
      range.selectNodeContents(element);
      selection.removeAllRanges();
      selection.addRange(range);
    }
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      setCopyState('copied');
    } catch {
      // The clipboard API is missing on plain-http deployments and may be denied;
      // selecting the secret still lets the person copy it by hand.
      selectSecret();
      setCopyState('failed');
    }
  }

  return (
    <div role="status" className="rounded-md border border-amber-300 bg-amber-50 p-4">
      <p className="text-sm font-medium text-amber-900">{title}</p>
      <div className="mt-1 text-sm text-amber-900">{children}</div>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <code
          ref={secretRef}
          data-testid={testId}
          className="min-w-0 flex-1 rounded border border-amber-200 bg-white px-3 py-2 font-mono text-sm break-all text-slate-900"
        >
          {secret}
        </code>
        <Button variant="secondary" onClick={() => void copy()}>
          Copy
        </Button>
        <Button variant="secondary" onClick={onDismiss}>
          Done
        </Button>
      </div>
      <p aria-live="polite" className="mt-2 text-xs text-amber-900">
        {copyState === 'copied' && 'Copied to the clipboard.'}
        {copyState === 'failed' && 'Copying is not available here. It is selected: press Ctrl+C (⌘C on a Mac).'}
      </p>
    </div>
  );
}
