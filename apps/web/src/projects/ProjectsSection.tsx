import { listPageSize } from '../api/pagedList';
import { type Project, useDeleteProjectMutation, useProjectsQuery } from '../api/projects';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { NameSearch } from '../components/NameSearch';
import { Pagination } from '../components/Pagination';
import { useClampedSkip } from '../lib/useClampedSkip';
import { useNameListParams } from '../lib/useNameListParams';
import { ProjectsTable } from './ProjectsTable';

/** The organization's projects: search, table and pages. */
export function ProjectsSection({ orgId, onCreate }: { orgId: string; onCreate?: () => void }) {
  const { params, update } = useNameListParams();
  const projectsQuery = useProjectsQuery(orgId, params);
  const deleteProject = useDeleteProjectMutation(orgId);
  const list = projectsQuery.data;
  useClampedSkip({
    skip: params.skip,
    pageSize: listPageSize,
    total: list?.total_count,
    isPlaceholder: projectsQuery.isPlaceholderData,
    onClamp: (skip) => update({ skip }, { replace: true }),
  });

  function confirmDelete(project: Project) {
    if (window.confirm(`Delete the project “${project.name}” and its notes with all their versions? Its documents stay.`)) {
      deleteProject.mutate(project.project_id);
    }
  }

  return (
    <section aria-label="Projects" className="space-y-4">
      <NameSearch
        label="Search projects by name"
        value={params.nameSearch}
        onSearch={(nameSearch) => update({ nameSearch }, { replace: true })}
      />
      {projectsQuery.isError && (
        <ErrorAlert title="Could not load projects" error={projectsQuery.error} onRetry={() => void projectsQuery.refetch()} />
      )}
      {deleteProject.isError && <ErrorAlert title="Could not delete the project" error={deleteProject.error} />}
      {projectsQuery.isPending && <LoadingState label="Loading projects…" />}
      {list && list.total_count === 0 && params.nameSearch === '' && (
        <EmptyState
          title="No projects yet"
          description="A project gathers documents and Markdown notes (a packing list, recipes, meeting minutes) that you and the agent keep up to date, with every version kept."
        >
          {onCreate && <Button onClick={onCreate}>Create a project</Button>}
        </EmptyState>
      )}
      {list && list.total_count === 0 && params.nameSearch !== '' && (
        <EmptyState title="No matching projects" description="No project name contains this search.">
          <Button variant="secondary" onClick={() => update({ nameSearch: '' })}>
            Show all projects
          </Button>
        </EmptyState>
      )}
      {list && list.total_count > 0 && (
        <>
          <ProjectsTable
            orgId={orgId}
            projects={list.projects}
            onDelete={confirmDelete}
            deletingId={deleteProject.isPending ? (deleteProject.variables ?? null) : null}
          />
          <Pagination
            label="Pages of projects"
            skip={list.skip}
            pageSize={listPageSize}
            shown={list.projects.length}
            total={list.total_count}
            onSkipChange={(skip) => update({ skip })}
          />
        </>
      )}
    </section>
  );
}
