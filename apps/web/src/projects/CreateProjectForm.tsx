import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { useCreateProjectMutation } from '../api/projects';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { TextAreaField } from '../components/TextAreaField';
import { TextField } from '../components/TextField';
import { projectPagePath } from '../layout/orgPaths';

/** Makes a project and opens it, where its notes are written. */
export function CreateProjectForm({ orgId, onCancel }: { orgId: string; onCancel: () => void }) {
  const navigate = useNavigate();
  const createProject = useCreateProjectMutation(orgId);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    createProject.mutate(
      { name: name.trim(), description: description.trim() },
      { onSuccess: (project) => navigate(projectPagePath(orgId, project.project_id)) },
    );
  }

  return (
    <form onSubmit={submit} aria-label="New project" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="grid gap-3 md:grid-cols-[16rem_minmax(0,1fr)]">
        <TextField
          label="Name"
          required
          maxLength={200}
          autoFocus
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <TextAreaField
          label="Description"
          rows={2}
          maxLength={4000}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          hint="What the project is about, for the people and the agent who keep its notes."
        />
      </div>
      {createProject.isError && <ErrorAlert title="Could not create the project" error={createProject.error} />}
      <div className="flex gap-2">
        <Button type="submit" disabled={createProject.isPending || name.trim() === ''}>
          {createProject.isPending ? 'Creating…' : 'Create project'}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
