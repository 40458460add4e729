import { useId } from 'react';
import { type Tag, useTagsQuery } from '../api/tags';

interface TagPickerProps {
  orgId: string;
  selected: string[];
  onToggle: (tagId: string, checked: boolean) => void;
  disabled?: boolean;
}

/** The organization's tags as checkboxes with their colors; a tag's name says what it groups. */
export function TagPicker({ orgId, selected, onToggle, disabled }: TagPickerProps) {
  const tags = useTagsQuery(orgId);
  const idBase = useId();
  if (tags.isPending) return <p className="text-sm text-slate-500">Loading tags…</p>;
  if (tags.isError) return <p className="text-sm text-red-700">The tags could not be loaded: {tags.error.message}</p>;
  const list: Tag[] = tags.data.tags;
  if (list.length === 0) {
    return <p className="text-sm text-slate-500">No tags yet: create them on the Tags page.</p>;
  }
  return (
    <ul className="max-h-56 space-y-1 overflow-y-auto">
      {list.map((tag) => {
        const id = `${idBase}-${tag.id}`;
        return (
          <li key={tag.id} className="flex items-center gap-2">
            <input
              id={id}
              type="checkbox"
              className="size-4 rounded border-slate-300"
              checked={selected.includes(tag.id)}
              disabled={disabled}
              onChange={(event) => onToggle(tag.id, event.target.checked)}
            />
            <label htmlFor={id} className="flex items-center gap-1.5 text-sm text-slate-800">
              <span aria-hidden="true" className="inline-block size-2 rounded-full" style={{ backgroundColor: tag.color }} />
              {tag.name}
            </label>
          </li>
        );
      })}
    </ul>
  );
}
