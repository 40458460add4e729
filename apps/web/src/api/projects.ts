import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteNoContent, getJson, postJson, putJson } from './client';
import { type NameListParams, nameListSearch } from './pagedList';
import { orgApiPath } from './queries';

export interface ProjectDocument {
  document_id: string;
  document_name: string;
  mime_type: string | null;
  added_at: string;
}

export interface Project {
  project_id: string;
  name: string;
  description: string;
  /** The dataset of the project's tables (its CSV, TSV and XLSX documents); null until one is linked. */
  dataset_id: string | null;
  note_count: number;
  document_count: number;
  documents: ProjectDocument[];
  created_by: string;
  created_at: string;
  updated_at: string;
}

interface ProjectList {
  projects: Project[];
  total_count: number;
  skip: number;
}

export function projectsQueryKey(orgId: string) {
  return ['orgs', orgId, 'projects'] as const;
}

function projectsPath(orgId: string): string {
  return `${orgApiPath(orgId)}/projects`;
}

export function projectPath(orgId: string, projectId: string): string {
  return `${projectsPath(orgId)}/${encodeURIComponent(projectId)}`;
}

export function useProjectsQuery(orgId: string, params: NameListParams) {
  return useQuery({
    queryKey: [...projectsQueryKey(orgId), 'page', params],
    queryFn: () => getJson<ProjectList>(`${projectsPath(orgId)}?${nameListSearch(params)}`),
    placeholderData: keepPreviousData,
  });
}

export function useProjectQuery(orgId: string, projectId: string) {
  return useQuery({
    queryKey: [...projectsQueryKey(orgId), 'detail', projectId],
    queryFn: () => getJson<Project>(projectPath(orgId, projectId)),
  });
}

export function useRefreshProjects(orgId: string): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: projectsQueryKey(orgId) });
}

export function useCreateProjectMutation(orgId: string) {
  const refresh = useRefreshProjects(orgId);
  return useMutation({
    mutationFn: (body: { name: string; description?: string }) => postJson<Project>(projectsPath(orgId), { body }),
    onSuccess: refresh,
  });
}

export function useUpdateProjectMutation(orgId: string, projectId: string) {
  const refresh = useRefreshProjects(orgId);
  return useMutation({
    mutationFn: (body: { name?: string; description?: string }) => putJson<Project>(projectPath(orgId, projectId), { body }),
    onSuccess: refresh,
  });
}

export function useDeleteProjectMutation(orgId: string) {
  const refresh = useRefreshProjects(orgId);
  return useMutation({
    mutationFn: (projectId: string) => deleteNoContent(projectPath(orgId, projectId)),
    onSuccess: refresh,
  });
}

/** Links an existing document of the organization to the project, or unlinks it (the document stays). */
export function useProjectDocumentMutation(orgId: string, projectId: string) {
  const refresh = useRefreshProjects(orgId);
  return useMutation({
    mutationFn: async ({ documentId, link }: { documentId: string; link: boolean }): Promise<void> => {
      if (link) await postJson<Project>(`${projectPath(orgId, projectId)}/documents`, { body: { document_id: documentId } });
      else await deleteNoContent(`${projectPath(orgId, projectId)}/documents/${encodeURIComponent(documentId)}`);
    },
    onSuccess: refresh,
  });
}
