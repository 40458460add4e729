import { useEffect, useState } from 'react';

interface ThinkingBlockProps {
  thinking: string;
  /** When the thinking streamed, if it did on this screen. */
  start?: number;
  end?: number;
  /** The turn still streams. */
  live: boolean;
}

const seconds = (ms: number) => Math.max(1, Math.round(ms / 1000));

/** The model's reasoning, folded: "Thinking… 3s" while it streams, then "Thought for 3s". */
export function ThinkingBlock({ thinking, start, end, live }: ThinkingBlockProps) {
  const running = live && start !== undefined && end === undefined;
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);

  const label = running
    ? `Thinking… ${seconds(now - (start ?? now))}s`
    : start !== undefined && end !== undefined
      ? `Thought for ${seconds(end - start)}s`
      : 'Thought';

  return (
    <details className="rounded-md border border-slate-200 bg-slate-50 px-3 py-1.5 text-xs text-slate-600">
      <summary className="cursor-pointer font-medium" aria-live={running ? 'off' : undefined}>
        {label}
      </summary>
      <p className="mt-1 whitespace-pre-wrap break-words">{thinking}</p>
    </details>
  );
}
