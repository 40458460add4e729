interface TagChipProps {
  tagId: string;
  onSelect: (tagId: string) => void;
}

/** A tag on a document; choosing it filters the list to documents with that tag. */
export function TagChip({ tagId, onSelect }: TagChipProps) {
  return (
    <button
      type="button"
      aria-label={`Filter by tag ${tagId}`}
      onClick={() => onSelect(tagId)}
      className="rounded-full bg-indigo-50 px-2 py-0.5 font-mono text-xs text-indigo-800 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600"
    >
      {tagId}
    </button>
  );
}

interface ActiveTagFilterProps {
  tagId: string;
  onRemove: (tagId: string) => void;
}

export function ActiveTagFilter({ tagId, onRemove }: ActiveTagFilterProps) {
  return (
    <span className="inline-flex items-center gap-1 rounded-full border border-indigo-200 bg-indigo-50 py-0.5 pr-1 pl-2.5 text-xs text-indigo-900">
      Tag <span className="font-mono">{tagId}</span>
      <button
        type="button"
        aria-label={`Remove the filter by tag ${tagId}`}
        onClick={() => onRemove(tagId)}
        className="rounded-full px-1.5 leading-5 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <span aria-hidden="true">×</span>
      </button>
    </span>
  );
}
