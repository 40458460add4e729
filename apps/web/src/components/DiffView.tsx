type LineKind = 'added' | 'removed' | 'hunk' | 'header' | 'context';

const lineClasses: Record<LineKind, string> = {
  added: 'bg-emerald-50 text-emerald-800',
  removed: 'bg-red-50 text-red-800',
  hunk: 'bg-slate-50 text-slate-500',
  header: 'text-slate-500',
  context: 'text-slate-700',
};

/** What a screen reader says before a line, since the colour does not reach it. */
const lineLabels: Partial<Record<LineKind, string>> = { added: 'added: ', removed: 'removed: ' };

function kindOf(line: string): LineKind {
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('===') || line.startsWith('Index:')) return 'header';
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'added';
  if (line.startsWith('-')) return 'removed';
  return 'context';
}

interface DiffViewProps {
  /** Unified diff text. */
  diff: string;
  /** The accessible name of the view. */
  label?: string;
  additions?: number;
  deletions?: number;
  /** Tailwind classes bounding the view's height (it scrolls within): `max-h-72`, or `min-h-0 flex-1` in a column. */
  maxHeight?: string;
}

/**
 * A unified diff as a person reads it: added lines green, removed lines red, hunk headers muted,
 * monospace, scrolling sideways rather than wrapping, so that the columns stay where they are.
 */
export function DiffView({ diff, label = 'Diff', additions, deletions, maxHeight = 'max-h-96' }: DiffViewProps) {
  const lines = diff.replace(/\n$/, '').split('\n');
  const changed = lines.some((line) => {
    const kind = kindOf(line);
    return kind === 'added' || kind === 'removed';
  });
  return (
    <figure aria-label={label} className={`flex min-w-0 flex-col rounded-md border border-slate-200 bg-white ${maxHeight}`}>
      {(additions !== undefined || deletions !== undefined) && (
        <figcaption className="flex shrink-0 gap-3 border-b border-slate-200 px-2 py-1 text-xs">
          <span className="font-medium text-emerald-700">+{additions ?? 0}</span>
          <span className="font-medium text-red-700">−{deletions ?? 0}</span>
          <span className="sr-only">lines</span>
        </figcaption>
      )}
      {changed ? (
        <pre className="min-h-0 flex-1 overflow-auto py-1 font-mono text-xs leading-5">
          <code className="block min-w-max">
            {lines.map((line, index) => {
              const kind = kindOf(line);
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: the lines of a diff never move
                <span key={index} className={`block px-2 whitespace-pre ${lineClasses[kind]}`}>
                  {lineLabels[kind] && <span className="sr-only">{lineLabels[kind]}</span>}
                  {line === '' ? ' ' : line}
                </span>
              );
            })}
          </code>
        </pre>
      ) : (
        <p className="px-2 py-1.5 text-xs text-slate-600">No change in the text.</p>
      )}
    </figure>
  );
}
