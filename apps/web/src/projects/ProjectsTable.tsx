import { Link } from 'react-router';
import type { Project } from '../api/projects';
import { Button } from '../components/Button';
import { DataTable } from '../components/DataTable';
import { projectPagePath } from '../layout/orgPaths';
import { formatDateTime } from '../lib/format';

const COLUMNS = ['Name', 'Notes', 'Documents', 'Updated'];

interface ProjectsTableProps {
  orgId: string;
  projects: Project[];
  onDelete: (project: Project) => void;
  deletingId: string | null;
}

export function ProjectsTable({ orgId, projects, onDelete, deletingId }: ProjectsTableProps) {
  return (
    <DataTable columns={COLUMNS}>
      {projects.map((project) => (
        <tr key={project.project_id} className="align-top">
          <td className="max-w-96 px-4 py-2.5">
            <Link
              to={projectPagePath(orgId, project.project_id)}
              className="font-medium break-words text-slate-900 underline-offset-2 hover:underline"
            >
              {project.name}
            </Link>
            {project.description && <p className="line-clamp-1 text-xs text-slate-500">{project.description}</p>}
          </td>
          <td className="px-4 py-2.5 tabular-nums">{project.note_count}</td>
          <td className="px-4 py-2.5 tabular-nums">{project.document_count}</td>
          <td className="px-4 py-2.5 whitespace-nowrap">
            <time dateTime={project.updated_at}>{formatDateTime(project.updated_at)}</time>
          </td>
          <td className="px-4 py-2.5 text-right">
            <Button
              variant="danger"
              className="px-2.5 py-1 text-xs"
              aria-label={`Delete project ${project.name}`}
              disabled={deletingId === project.project_id}
              onClick={() => onDelete(project)}
            >
              Delete
            </Button>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
