import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteNoContent, getJson, postJson, putJson } from './client';
import { projectPath, projectsQueryKey } from './projects';

export type NoteSource = 'person' | 'agent';

export interface NoteSummary {
  note_id: string;
  project_id: string;
  name: string;
  standing_instruction: string;
  version: number;
  /** Characters. */
  size: number;
  created_by: string;
  created_at: string;
  updated_by: string;
  updated_at: string;
}

export interface Note extends NoteSummary {
  content: string;
}

export interface NoteVersionSummary {
  version: number;
  size: number;
  source: NoteSource;
  summary: string;
  created_by: string;
  created_at: string;
}

export interface NoteDiff {
  from: number;
  to: number;
  /** Unified diff text. */
  diff: string;
  additions: number;
  deletions: number;
}

export interface NoteChange {
  name?: string;
  content?: string;
  standing_instruction?: string;
  /** The version the change was made on: the server refuses it (409) when the note moved on since. */
  base_version?: number;
}

/** The tools of the agent that change a project's notes: a success of one means the notes shown are old. */
export const NOTE_WRITE_TOOLS: ReadonlySet<string> = new Set(['create_note', 'rewrite_note', 'rename_note', 'delete_note']);

export function notesQueryKey(orgId: string, projectId: string) {
  return ['orgs', orgId, 'notes', projectId] as const;
}

function notesPath(orgId: string, projectId: string): string {
  return `${projectPath(orgId, projectId)}/notes`;
}

function notePath(orgId: string, projectId: string, noteId: string): string {
  return `${notesPath(orgId, projectId)}/${encodeURIComponent(noteId)}`;
}

export function useNotesQuery(orgId: string, projectId: string) {
  return useQuery({
    queryKey: [...notesQueryKey(orgId, projectId), 'list'],
    queryFn: async () => (await getJson<{ notes: NoteSummary[] }>(notesPath(orgId, projectId))).notes,
  });
}

export function useNoteQuery(orgId: string, projectId: string, noteId: string) {
  return useQuery({
    queryKey: [...notesQueryKey(orgId, projectId), 'note', noteId],
    queryFn: () => getJson<Note>(notePath(orgId, projectId, noteId)),
    // A deleted note is not asked for again and again.
    retry: false,
  });
}

export function useNoteVersionsQuery(orgId: string, projectId: string, noteId: string) {
  return useQuery({
    queryKey: [...notesQueryKey(orgId, projectId), 'versions', noteId],
    queryFn: async () =>
      (await getJson<{ versions: NoteVersionSummary[] }>(`${notePath(orgId, projectId, noteId)}/versions`)).versions,
  });
}

/** The change between two versions of a note; versions never change, so neither does their diff. */
export function useNoteDiffQuery(orgId: string, projectId: string, noteId: string, from: number | null, to: number | null) {
  return useQuery({
    queryKey: [...notesQueryKey(orgId, projectId), 'diff', noteId, from, to],
    queryFn: () =>
      getJson<NoteDiff>(
        `${notePath(orgId, projectId, noteId)}/diff?${new URLSearchParams({ from: String(from), to: String(to) })}`,
      ),
    enabled: from !== null && to !== null && from !== to,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Re-reads the project's notes (their list, the open note, its history) and the project's note count. */
export function useRefreshNotes(orgId: string): (projectId: string) => Promise<void> {
  const queryClient = useQueryClient();
  return async (projectId) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: notesQueryKey(orgId, projectId) }),
      queryClient.invalidateQueries({ queryKey: projectsQueryKey(orgId) }),
    ]);
  };
}

export function useCreateNoteMutation(orgId: string, projectId: string) {
  const refresh = useRefreshNotes(orgId);
  return useMutation({
    mutationFn: (body: { name: string; content?: string; standing_instruction?: string }) =>
      postJson<Note>(notesPath(orgId, projectId), { body }),
    onSuccess: () => refresh(projectId),
  });
}

export function useUpdateNoteMutation(orgId: string, projectId: string, noteId: string) {
  const queryClient = useQueryClient();
  const refresh = useRefreshNotes(orgId);
  return useMutation({
    mutationFn: (body: NoteChange) => putJson<Note>(notePath(orgId, projectId, noteId), { body }),
    onSuccess: (note) => {
      queryClient.setQueryData([...notesQueryKey(orgId, projectId), 'note', noteId], note);
      return refresh(projectId);
    },
  });
}

export function useDeleteNoteMutation(orgId: string, projectId: string) {
  const queryClient = useQueryClient();
  const refresh = useRefreshNotes(orgId);
  return useMutation({
    mutationFn: (noteId: string) => deleteNoContent(notePath(orgId, projectId, noteId)),
    onSuccess: (_, noteId) => {
      queryClient.removeQueries({ queryKey: [...notesQueryKey(orgId, projectId), 'note', noteId] });
      return refresh(projectId);
    },
  });
}

/** A note's name from the notes lists already read (for the agent's cards), without asking the server. */
export function useNoteNameLookup(orgId: string): (noteId: string) => string | undefined {
  const queryClient = useQueryClient();
  return (noteId) => {
    for (const [, notes] of queryClient.getQueriesData<NoteSummary[]>({ queryKey: ['orgs', orgId, 'notes'] })) {
      if (!Array.isArray(notes)) continue;
      const found = notes.find((note) => note.note_id === noteId);
      if (found) return found.name;
    }
    return undefined;
  };
}
