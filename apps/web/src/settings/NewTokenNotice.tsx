import { useRef, useState } from 'react';
import type { CreatedApiToken } from '../api/types';
import { Button } from '../components/Button';

type CopyState = 'idle' | 'copied' | 'failed';

interface NewTokenNoticeProps {
  token: CreatedApiToken;
  onDismiss: () => void;
}

export function NewTokenNotice({ token, onDismiss }: NewTokenNoticeProps) {
  const tokenRef = useRef<HTMLElement>(null);
  const [copyState, setCopyState] = useState<CopyState>('idle');

  function selectToken() {
    const element = tokenRef.current;
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
      await navigator.clipboard.writeText(token.token);
      setCopyState('copied');
    } catch {
      // The clipboard API is missing on plain-http deployments and may be denied;
      // selecting the token still lets the user copy it by hand.
      selectToken();
      setCopyState('failed');
    }
  }

  return (
    <div className="rounded-md border border-amber-300 bg-amber-50 p-4">
      <p className="text-sm font-medium text-amber-900">Token “{token.name}” created</p>
      <p className="mt-1 text-sm text-amber-900">Copy it now and store it somewhere safe. It will not be shown again.</p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <code
          ref={tokenRef}
          data-testid="new-token"
          className="min-w-0 flex-1 rounded border border-amber-200 bg-white px-3 py-2 font-mono text-sm break-all text-slate-900"
        >
          {token.token}
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
        {copyState === 'failed' && 'Copying is not available here. The token is selected: press Ctrl+C (⌘C on a Mac).'}
      </p>
    </div>
  );
}
