import { useParams, useSearchParams } from 'react-router';
import { ApiError } from '../api/client';
import { useNotesQuery } from '../api/notes';
import { useProjectQuery } from '../api/projects';
import { SubjectAgentPanel } from '../chat/SubjectAgentPanel';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { NotFoundState } from '../components/NotFoundState';
import { useCurrentOrg } from '../layout/OrgRoute';
import { orgPath } from '../layout/orgPaths';
import { Workspace } from '../layout/panels/Workspace';
import { NotePanel } from './NotePanel';
import { NotesList } from './NotesList';
import { ProjectDocuments } from './ProjectDocuments';
import { ProjectHeader } from './ProjectHeader';

function ProjectView({ orgId, projectId }: { orgId: string; projectId: string }) {
  const projectQuery = useProjectQuery(orgId, projectId);
  const notesQuery = useNotesQuery(orgId, projectId);
  const [search, setSearch] = useSearchParams();
  if (projectQuery.isPending) {
    return <LoadingState label="Loading the project…" />;
  }
  if (projectQuery.error instanceof ApiError && projectQuery.error.status === 404) {
    return <NotFoundState what="Project" backTo={orgPath(orgId, 'projects')} backLabel="Go to the projects" />;
  }
  if (!projectQuery.data) {
    return (
      <ErrorAlert title="Could not load the project" error={projectQuery.error} onRetry={() => void projectQuery.refetch()} />
    );
  }
  const project = projectQuery.data;
  const notes = notesQuery.data ?? [];
  const asked = search.get('note');
  // The note asked for, else the first one: a project with notes always shows one.
  const noteId = notes.some((note) => note.note_id === asked) ? asked : (notes[0]?.note_id ?? null);
  const select = (next: string | null) =>
    setSearch(
      (current) => {
        const params = new URLSearchParams(current);
        if (next === null) params.delete('note');
        else params.set('note', next);
        return params;
      },
      { replace: true },
    );

  return (
    <Workspace header={<ProjectHeader orgId={orgId} project={project} />}>
      <div className="grid h-full min-h-0 grid-cols-[13rem_minmax(0,1fr)_22rem] gap-3 xl:grid-cols-[15rem_minmax(0,1fr)_26rem]">
        <div className="flex min-h-0 flex-col gap-3 overflow-y-auto">
          <NotesList orgId={orgId} projectId={projectId} query={notesQuery} selected={noteId} onSelect={select} />
          <ProjectDocuments orgId={orgId} project={project} />
        </div>
        <div className="min-h-0">
          {noteId !== null ? (
            <NotePanel key={noteId} orgId={orgId} projectId={projectId} noteId={noteId} onDeleted={() => select(null)} />
          ) : (
            <div className="flex h-full items-center justify-center rounded-lg border border-dashed border-slate-300 bg-white p-6">
              <p className="max-w-sm text-center text-sm text-slate-600">
                {notesQuery.isPending
                  ? 'Loading the notes…'
                  : 'No notes yet. Make one with “New note”, or ask the agent to write one (a packing list, recipes, minutes).'}
              </p>
            </div>
          )}
        </div>
        <SubjectAgentPanel
          orgId={orgId}
          subject={{ kind: 'project', id: projectId }}
          emptyText="Ask the agent to write or update a note of this project: it proposes each change as a diff for you to approve, and can search the web."
        />
      </div>
    </Workspace>
  );
}

/** A project: its notes (edited, versioned, compared), its documents, and the agent that keeps them. */
export function ProjectPage() {
  const org = useCurrentOrg();
  const { projectId } = useParams();
  return projectId ? <ProjectView key={`${org.id}/${projectId}`} orgId={org.id} projectId={projectId} /> : null;
}
