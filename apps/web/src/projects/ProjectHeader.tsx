import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { type Project, useDeleteProjectMutation, useUpdateProjectMutation } from '../api/projects';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { TextField } from '../components/TextField';
import { orgPath } from '../layout/orgPaths';

function ProjectDetailsForm({ orgId, project, onDone }: { orgId: string; project: Project; onDone: () => void }) {
  const update = useUpdateProjectMutation(orgId, project.project_id);
  const [name, setName] = useState(project.name);
  const [description, setDescription] = useState(project.description);

  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate({ name: name.trim(), description: description.trim() }, { onSuccess: onDone });
  }

  return (
    <form onSubmit={submit} aria-label="Project details" className="space-y-2">
      <div className="grid gap-2 md:grid-cols-[16rem_minmax(0,1fr)]">
        <TextField label="Name" required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
        <TextField
          label="Description"
          maxLength={4000}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      {update.isError && <ErrorAlert title="Could not save the project" error={update.error} />}
      <div className="flex gap-2">
        <Button type="submit" disabled={update.isPending || name.trim() === ''}>
          {update.isPending ? 'Saving…' : 'Save'}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** The project's name and description, compact so that the notes get the height; editing them, deleting the project. */
export function ProjectHeader({ orgId, project }: { orgId: string; project: Project }) {
  const navigate = useNavigate();
  const deleteProject = useDeleteProjectMutation(orgId);
  const [editing, setEditing] = useState(false);

  function confirmDelete() {
    if (window.confirm(`Delete the project “${project.name}” and its notes with all their versions? Its documents stay.`)) {
      deleteProject.mutate(project.project_id, { onSuccess: () => navigate(orgPath(orgId, 'projects')) });
    }
  }

  return (
    <div className="space-y-1">
      <Link to={orgPath(orgId, 'projects')} className="text-sm text-slate-600 hover:text-slate-900">
        ← All projects
      </Link>
      {editing ? (
        <ProjectDetailsForm orgId={orgId} project={project} onDone={() => setEditing(false)} />
      ) : (
        <div className="flex items-start justify-between gap-4">
          <div className="min-w-0">
            <h1 className="truncate text-xl font-semibold tracking-tight text-slate-900">{project.name}</h1>
            {project.description && (
              <p className="line-clamp-1 text-sm text-slate-600" title={project.description}>
                {project.description}
              </p>
            )}
          </div>
          <div className="flex shrink-0 gap-2">
            <Button variant="secondary" onClick={() => setEditing(true)}>
              Edit details
            </Button>
            <Button variant="danger" disabled={deleteProject.isPending} onClick={confirmDelete}>
              Delete project
            </Button>
          </div>
        </div>
      )}
      {deleteProject.isError && <ErrorAlert title="Could not delete the project" error={deleteProject.error} />}
    </div>
  );
}
