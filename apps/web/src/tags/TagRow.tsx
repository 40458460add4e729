import type { Tag } from '../api/tags';
import { Button } from '../components/Button';
import { formatDateTime } from '../lib/format';
import { TagSwatch } from './TagSwatch';

interface TagRowProps {
  tag: Tag;
  isDeleting: boolean;
  onEdit: (tag: Tag) => void;
  onDelete: (tag: Tag) => void;
}

export function TagRow({ tag, isDeleting, onEdit, onDelete }: TagRowProps) {
  return (
    <tr className="align-top">
      <td className="px-4 py-2.5">
        <span className="inline-flex items-center gap-2 font-medium break-words text-slate-900">
          <TagSwatch color={tag.color} />
          {tag.name}
        </span>
      </td>
      <td className="max-w-md px-4 py-2.5 break-words">{tag.description || <span className="text-slate-400">—</span>}</td>
      <td className="px-4 py-2.5 whitespace-nowrap">
        <time dateTime={tag.updated_at}>{formatDateTime(tag.updated_at)}</time>
      </td>
      <td className="px-4 py-2.5 text-right whitespace-nowrap">
        <div className="inline-flex gap-2">
          <Button
            variant="secondary"
            className="px-2.5 py-1 text-xs"
            aria-label={`Edit tag ${tag.name}`}
            onClick={() => onEdit(tag)}
          >
            Edit
          </Button>
          <Button
            variant="danger"
            className="px-2.5 py-1 text-xs"
            aria-label={`Delete tag ${tag.name}`}
            disabled={isDeleting}
            onClick={() => onDelete(tag)}
          >
            Delete
          </Button>
        </div>
      </td>
    </tr>
  );
}
