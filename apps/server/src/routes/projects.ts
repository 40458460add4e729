import {
  createProject,
  deleteProjectAndTables,
  getProject,
  linkProjectDocument,
  listProjects,
  unlinkProjectDocument,
  updateProject,
} from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import {
  AddProjectDocumentBodySchema,
  CreateProjectBodySchema,
  ProjectSchema,
  toProject,
  UpdateProjectBodySchema,
} from './project-shapes.ts';
import { ErrorBodySchema, OrgParamsSchema, PageQuerySchema } from './schemas.ts';

export const ProjectParamsSchema = OrgParamsSchema.extend({ project_id: z.string().min(1).max(64) });
const ProjectDocumentParamsSchema = ProjectParamsSchema.extend({ document_id: z.string().min(1).max(64) });
const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const tags = ['projects'];

/** Projects (seed 001): a name, a description, documents of the organization, and notes. */
export function projectRoutes(app: ZodApp, { db, events, data }: RouteDeps): void {
  const services = { db, events };

  app.get(
    '/v0/orgs/:organization_id/projects',
    {
      schema: {
        summary: 'List projects, newest first, with their note and document counts and their documents',
        tags,
        params: OrgParamsSchema,
        querystring: PageQuerySchema,
        response: {
          200: z.object({ projects: z.array(ProjectSchema), total_count: z.number(), skip: z.number() }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { skip, limit, name_search } = request.query;
      const page = await listProjects(db, orgOf(request).orgId, { skip, limit, nameSearch: name_search });
      return { projects: page.projects.map(toProject), total_count: page.total, skip };
    },
  );

  app.post(
    '/v0/orgs/:organization_id/projects',
    {
      schema: {
        summary: 'Create a project',
        tags,
        params: OrgParamsSchema,
        body: CreateProjectBodySchema,
        response: { 200: ProjectSchema, ...errors },
      },
    },
    async (request) => toProject(await createProject(services, orgOf(request), request.body)),
  );

  app.get(
    '/v0/orgs/:organization_id/projects/:project_id',
    {
      schema: {
        summary: 'One project with its documents',
        tags,
        params: ProjectParamsSchema,
        response: { 200: ProjectSchema, ...errors },
      },
    },
    async (request) => toProject(await getProject(db, orgOf(request).orgId, request.params.project_id)),
  );

  app.put(
    '/v0/orgs/:organization_id/projects/:project_id',
    {
      schema: {
        summary: 'Rename a project or change its description',
        tags,
        params: ProjectParamsSchema,
        body: UpdateProjectBodySchema,
        response: { 200: ProjectSchema, ...errors },
      },
    },
    async (request) => toProject(await updateProject(services, orgOf(request), request.params.project_id, request.body)),
  );

  app.delete(
    '/v0/orgs/:organization_id/projects/:project_id',
    {
      schema: {
        summary: 'Delete a project with its notes and the dataset of its tables; its documents stay in the organization',
        tags,
        params: ProjectParamsSchema,
        response: { 200: z.object({ deleted: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      await deleteProjectAndTables(services, data, orgOf(request), request.params.project_id);
      return { deleted: true as const };
    },
  );

  app.post(
    '/v0/orgs/:organization_id/projects/:project_id/documents',
    {
      schema: {
        summary: 'Link a document of the organization to the project',
        description:
          "A CSV, TSV or XLSX document also becomes a table of the project's dataset (dataset_id, made with the first one), which the agent queries in the project's conversations.",
        tags,
        params: ProjectParamsSchema,
        body: AddProjectDocumentBodySchema,
        response: { 200: ProjectSchema, ...errors },
      },
    },
    async (request) =>
      toProject(await linkProjectDocument(services, data, orgOf(request), request.params.project_id, request.body.document_id)),
  );

  app.delete(
    '/v0/orgs/:organization_id/projects/:project_id/documents/:document_id',
    {
      schema: {
        summary: "Unlink a document from the project (and its tables from the project's dataset); the document stays",
        tags,
        params: ProjectDocumentParamsSchema,
        response: { 200: ProjectSchema, ...errors },
      },
    },
    async (request) => {
      const { project_id, document_id } = request.params;
      return toProject(await unlinkProjectDocument(services, data, orgOf(request), project_id, document_id));
    },
  );
}
