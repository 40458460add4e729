import {
  createNote,
  deleteNote,
  diffNoteVersions,
  getNote,
  getNoteVersion,
  listNotes,
  listNoteVersions,
  updateNote,
} from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import {
  CreateNoteBodySchema,
  NoteDiffQuerySchema,
  NoteDiffSchema,
  NoteSchema,
  NoteSummarySchema,
  NoteVersionSchema,
  NoteVersionSummarySchema,
  toNote,
  toNoteSummary,
  toNoteVersion,
  toNoteVersionSummary,
  UpdateNoteBodySchema,
  versionParam,
} from './note-shapes.ts';
import { ProjectParamsSchema } from './projects.ts';
import { ErrorBodySchema } from './schemas.ts';

const NoteParamsSchema = ProjectParamsSchema.extend({ note_id: z.string().min(1).max(64) });
const NoteVersionParamsSchema = NoteParamsSchema.extend({ version: versionParam });
const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 413: ErrorBodySchema };
const tags = ['notes'];
const base = '/v0/orgs/:organization_id/projects/:project_id/notes';

/** A project's notes (seed 001): Markdown kept as their standing instruction says, with versions. */
export function noteRoutes(app: ZodApp, { db, events }: RouteDeps): void {
  const services = { db, events };

  app.get(
    base,
    {
      schema: {
        summary: "The project's notes by name, without their content",
        tags,
        params: ProjectParamsSchema,
        response: { 200: z.object({ notes: z.array(NoteSummarySchema) }), ...errors },
      },
    },
    async (request) => ({
      notes: (await listNotes(db, orgOf(request).orgId, request.params.project_id)).map(toNoteSummary),
    }),
  );

  app.post(
    base,
    {
      schema: {
        summary: 'Create a note at version 1',
        description: 'A name already used in the project is a 409 naming that note: update it instead, or choose another name.',
        tags,
        params: ProjectParamsSchema,
        body: CreateNoteBodySchema,
        response: { 200: NoteSchema, ...errors },
      },
    },
    async (request) => {
      const { name, content, standing_instruction } = request.body;
      return toNote(
        await createNote(services, orgOf(request), request.params.project_id, {
          name,
          content,
          standingInstruction: standing_instruction,
          source: 'person',
        }),
      );
    },
  );

  app.get(
    `${base}/:note_id`,
    {
      schema: {
        summary: 'One note with its current content',
        tags,
        params: NoteParamsSchema,
        response: { 200: NoteSchema, ...errors },
      },
    },
    async (request) => {
      const { project_id, note_id } = request.params;
      return toNote(await getNote(db, orgOf(request).orgId, project_id, note_id));
    },
  );

  app.put(
    `${base}/:note_id`,
    {
      schema: {
        summary: 'Change a note: new content makes a new version, a new name or standing instruction does not',
        description:
          'With base_version, nothing is written when the note is at another version now: 409, and the answer says which version it is at.',
        tags,
        params: NoteParamsSchema,
        body: UpdateNoteBodySchema,
        response: { 200: NoteSchema, ...errors },
      },
    },
    async (request) => {
      const { project_id, note_id } = request.params;
      const { name, content, standing_instruction, base_version } = request.body;
      return toNote(
        await updateNote(services, orgOf(request), project_id, note_id, {
          name,
          content,
          standingInstruction: standing_instruction,
          baseVersion: base_version,
          source: 'person',
        }),
      );
    },
  );

  app.delete(
    `${base}/:note_id`,
    {
      schema: {
        summary: 'Delete a note and its versions',
        tags,
        params: NoteParamsSchema,
        response: { 200: z.object({ deleted: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      const { project_id, note_id } = request.params;
      await deleteNote(services, orgOf(request), project_id, note_id);
      return { deleted: true as const };
    },
  );

  app.get(
    `${base}/:note_id/versions`,
    {
      schema: {
        summary: "The note's versions, newest first, without their content",
        tags,
        params: NoteParamsSchema,
        response: { 200: z.object({ versions: z.array(NoteVersionSummarySchema) }), ...errors },
      },
    },
    async (request) => {
      const { project_id, note_id } = request.params;
      return { versions: (await listNoteVersions(db, orgOf(request).orgId, project_id, note_id)).map(toNoteVersionSummary) };
    },
  );

  app.get(
    `${base}/:note_id/versions/:version`,
    {
      schema: {
        summary: 'One version of the note with its content',
        tags,
        params: NoteVersionParamsSchema,
        response: { 200: NoteVersionSchema, ...errors },
      },
    },
    async (request) => {
      const { project_id, note_id, version } = request.params;
      return toNoteVersion(await getNoteVersion(db, orgOf(request).orgId, project_id, note_id, version));
    },
  );

  app.get(
    `${base}/:note_id/diff`,
    {
      schema: {
        summary: 'The unified diff between two versions of the note',
        tags,
        params: NoteParamsSchema,
        querystring: NoteDiffQuerySchema,
        response: { 200: NoteDiffSchema, ...errors },
      },
    },
    async (request) => {
      const { project_id, note_id } = request.params;
      const { from, to } = request.query;
      return { from, to, ...(await diffNoteVersions(db, orgOf(request).orgId, project_id, note_id, from, to)) };
    },
  );
}
