import { useTagsById } from '../api/tags';
import { useCurrentOrg } from '../layout/OrgRoute';

/** The tag's name and color; its id until the tags have loaded, or if it was deleted meanwhile. */
function useTagLabel(tagId: string): { label: string; color: string | undefined } {
  const { data: tags } = useTagsById(useCurrentOrg().id);
  const tag = tags?.get(tagId);
  return { label: tag?.name ?? tagId, color: tag?.color };
}

function ColorDot({ color }: { color: string | undefined }) {
  if (!color) return null;
  return <span aria-hidden="true" className="inline-block size-2 rounded-full" style={{ backgroundColor: color }} />;
}

interface TagChipProps {
  tagId: string;
  onSelect: (tagId: string) => void;
}

/** A tag on a document; choosing it filters the list to documents with that tag. */
export function TagChip({ tagId, onSelect }: TagChipProps) {
  const { label, color } = useTagLabel(tagId);
  return (
    <button
      type="button"
      aria-label={`Filter by tag ${label}`}
      onClick={() => onSelect(tagId)}
      className="inline-flex items-center gap-1 rounded-full bg-indigo-50 px-2 py-0.5 text-xs text-indigo-800 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600"
    >
      <ColorDot color={color} />
      {label}
    </button>
  );
}

interface ActiveTagFilterProps {
  tagId: string;
  onRemove: (tagId: string) => void;
}

export function ActiveTagFilter({ tagId, onRemove }: ActiveTagFilterProps) {
  const { label, color } = useTagLabel(tagId);
  return (
    <span className="inline-flex items-center gap-1 rounded-full border border-indigo-200 bg-indigo-50 py-0.5 pr-1 pl-2.5 text-xs text-indigo-900">
      Tag <ColorDot color={color} />
      <span>{label}</span>
      <button
        type="button"
        aria-label={`Remove the filter by tag ${label}`}
        onClick={() => onRemove(tagId)}
        className="rounded-full px-1.5 leading-5 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <span aria-hidden="true">×</span>
      </button>
    </span>
  );
}
