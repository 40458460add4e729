import { useQuery } from '@tanstack/react-query';
import { getJson } from './client';
import { orgApiPath } from './queries';

export interface Tag {
  id: string;
  name: string;
  color: string;
  description: string;
  created_at: string;
  updated_at: string;
}

/** Tags change rarely; a page shows many chips, which all read this one list. */
const TAGS_STALE_MS = 60_000;

/** The organization's tags by id, for showing tag ids as names. */
export function useTagsById(orgId: string) {
  return useQuery({
    queryKey: ['orgs', orgId, 'tags'] as const,
    queryFn: async () => {
      const { tags } = await getJson<{ tags: Tag[] }>(`${orgApiPath(orgId)}/tags?limit=100`);
      return new Map(tags.map((tag) => [tag.id, tag]));
    },
    staleTime: TAGS_STALE_MS,
  });
}
