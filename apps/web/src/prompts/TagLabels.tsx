import { useTagsById } from '../api/tags';
import { TagSwatch } from '../tags/TagSwatch';

export function TagLabels({ orgId, tagIds }: { orgId: string; tagIds: string[] }) {
  const { data: tags } = useTagsById(orgId);
  if (tagIds.length === 0) {
    return <span className="text-slate-400">—</span>;
  }
  return (
    <ul className="flex max-w-56 flex-wrap gap-x-3 gap-y-1">
      {tagIds.map((tagId) => {
        const tag = tags?.get(tagId);
        return (
          <li key={tagId} className="inline-flex items-center gap-1 text-xs">
            {tag && <TagSwatch color={tag.color} />}
            {tag?.name ?? tagId}
          </li>
        );
      })}
    </ul>
  );
}
