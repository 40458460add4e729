import { useNavigate } from 'react-router';
import { useCreateProjectMutation } from '../api/projects';
import { NameDescriptionForm } from '../components/NameDescriptionForm';
import { projectPagePath } from '../layout/orgPaths';

/** Makes a project and opens it, where its notes are written. */
export function CreateProjectForm({ orgId, onCancel }: { orgId: string; onCancel: () => void }) {
  const navigate = useNavigate();
  const createProject = useCreateProjectMutation(orgId);
  return (
    <NameDescriptionForm
      noun="project"
      descriptionHint="What the project is about, for the people and the agent who keep its notes."
      pending={createProject.isPending}
      error={createProject.error}
      onSubmit={(values) =>
        createProject.mutate(values, { onSuccess: (project) => navigate(projectPagePath(orgId, project.project_id)) })
      }
      onCancel={onCancel}
    />
  );
}
