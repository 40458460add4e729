import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteNoContent, getJson, postJson, putJson } from './client';
import { type NameListParams, nameListSearch, pickerLimit } from './pagedList';
import { orgApiPath } from './queries';

export interface Tag {
  id: string;
  name: string;
  color: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface TagList {
  tags: Tag[];
  total_count: number;
  skip: number;
}

/** What the create form sends, and what an edit may change. */
export interface TagFields {
  name: string;
  color: string;
  description: string;
}

/** Tags change rarely; a page shows many chips, which all read this one list. */
const TAGS_STALE_MS = 60_000;

function tagsQueryKey(orgId: string) {
  return ['orgs', orgId, 'tags'] as const;
}

function tagPath(orgId: string, tagId: string): string {
  return `${orgApiPath(orgId)}/tags/${encodeURIComponent(tagId)}`;
}

// One query serves the document chips and the tag pickers; the tags page's own pages share its
// key prefix, so that a change on the tags page shows everywhere as soon as it is invalidated.
function tagsQueryOptions(orgId: string) {
  return {
    queryKey: tagsQueryKey(orgId),
    queryFn: () => getJson<TagList>(`${orgApiPath(orgId)}/tags?limit=${pickerLimit}`),
    staleTime: TAGS_STALE_MS,
  };
}

// Module-level so that the selected map is only rebuilt when the list changes.
const byId = ({ tags }: TagList) => new Map(tags.map((tag) => [tag.id, tag]));

/** The organization's tags (the first 100), sorted by name: for pickers and chips. */
export function useTagsQuery(orgId: string, { enabled = true } = {}) {
  return useQuery({ ...tagsQueryOptions(orgId), enabled });
}

/** One page of the tags page's list, with its name search. */
export function useTagsPageQuery(orgId: string, params: NameListParams) {
  return useQuery({
    queryKey: [...tagsQueryKey(orgId), 'page', params],
    queryFn: () => getJson<TagList>(`${orgApiPath(orgId)}/tags?${nameListSearch(params)}`),
    placeholderData: (previous) => previous,
  });
}

/** The organization's tags by id, for showing tag ids as names. */
export function useTagsById(orgId: string) {
  return useQuery({ ...tagsQueryOptions(orgId), select: byId });
}

function useInvalidateTags(orgId: string) {
  const queryClient = useQueryClient();
  // Returned so that a mutation stays pending until the list shows its result.
  return () => queryClient.invalidateQueries({ queryKey: tagsQueryKey(orgId) });
}

export function useCreateTagMutation(orgId: string) {
  const invalidate = useInvalidateTags(orgId);
  return useMutation({
    mutationFn: (fields: TagFields) => postJson<Tag>(`${orgApiPath(orgId)}/tags`, { body: fields }),
    onSuccess: invalidate,
  });
}

export function useUpdateTagMutation(orgId: string) {
  const invalidate = useInvalidateTags(orgId);
  return useMutation({
    mutationFn: ({ id, ...fields }: TagFields & { id: string }) => putJson<Tag>(tagPath(orgId, id), { body: fields }),
    onSuccess: invalidate,
  });
}

export function useDeleteTagMutation(orgId: string) {
  const invalidate = useInvalidateTags(orgId);
  return useMutation({
    mutationFn: (tagId: string) => deleteNoContent(tagPath(orgId, tagId)),
    onSuccess: invalidate,
  });
}
