import { Link } from 'react-router';
import { useTagsQuery } from '../api/tags';
import { ErrorAlert } from '../components/ErrorAlert';
import { orgPath } from '../layout/orgPaths';
import { TagSwatch } from '../tags/TagSwatch';

interface TagPickerProps {
  orgId: string;
  value: string[];
  onChange: (tagIds: string[]) => void;
}

/** The prompt's tags, one checkbox per tag of the organization. */
export function TagPicker({ orgId, value, onChange }: TagPickerProps) {
  const tagsQuery = useTagsQuery(orgId);
  const tags = tagsQuery.data?.tags ?? [];

  function toggle(tagId: string, checked: boolean) {
    onChange(checked ? [...value, tagId] : value.filter((kept) => kept !== tagId));
  }

  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">Tags</legend>
      {tagsQuery.isError && (
        <ErrorAlert title="Could not load the tags" error={tagsQuery.error} onRetry={() => void tagsQuery.refetch()} />
      )}
      {tagsQuery.isSuccess && tags.length === 0 && (
        <p className="text-sm text-slate-500">
          No tags yet.{' '}
          <Link to={orgPath(orgId, 'tags')} className="underline">
            Create tags
          </Link>{' '}
          to group prompts with documents.
        </p>
      )}
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {tags.map((tag) => (
          <label key={tag.id} className="inline-flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              checked={value.includes(tag.id)}
              onChange={(event) => toggle(tag.id, event.target.checked)}
              className="size-4 rounded border-slate-300"
            />
            <TagSwatch color={tag.color} />
            {tag.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
