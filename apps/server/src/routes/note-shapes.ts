import type { NoteRecord, NoteSummary, NoteVersion, NoteVersionSummary } from '@docagent/core';
import { z } from 'zod';
import { iso } from './schemas.ts';

/** Notes of a project and their versions on the wire. */

/** Versions are PostgreSQL integers. */
const MAX_VERSION = 2_147_483_647;

export const NoteSummarySchema = z.object({
  note_id: z.string(),
  project_id: z.string(),
  name: z.string(),
  standing_instruction: z.string().describe('How the note is to be kept, e.g. "a shopping list grouped by aisle"'),
  version: z.number().describe('The current version; each change of the content makes a new one'),
  size: z.number().describe("The content's length in characters"),
  created_by: z.string(),
  created_at: z.string(),
  updated_by: z.string(),
  updated_at: z.string(),
});

export const NoteSchema = NoteSummarySchema.extend({ content: z.string().describe('Markdown') });

export const NoteVersionSummarySchema = z.object({
  version: z.number(),
  size: z.number(),
  source: z.enum(['person', 'agent']).describe('Who wrote the version'),
  summary: z.string(),
  created_by: z.string(),
  created_at: z.string(),
});

export const NoteVersionSchema = NoteVersionSummarySchema.extend({ content: z.string() });

export const NoteDiffSchema = z.object({
  from: z.number(),
  to: z.number(),
  diff: z.string().describe('Unified diff text with 3 lines of context; empty when the versions are the same'),
  additions: z.number(),
  deletions: z.number(),
});

export const toNoteSummary = (n: NoteSummary): z.infer<typeof NoteSummarySchema> => ({
  note_id: n.id,
  project_id: n.projectId,
  name: n.name,
  standing_instruction: n.standingInstruction,
  version: n.version,
  size: n.size,
  created_by: n.createdBy,
  created_at: iso(n.createdAt),
  updated_by: n.updatedBy,
  updated_at: iso(n.updatedAt),
});

export const toNote = (n: NoteRecord): z.infer<typeof NoteSchema> => ({ ...toNoteSummary(n), content: n.content });

export const toNoteVersionSummary = (v: NoteVersionSummary): z.infer<typeof NoteVersionSummarySchema> => ({
  version: v.version,
  size: v.size,
  source: v.source,
  summary: v.summary,
  created_by: v.createdBy,
  created_at: iso(v.createdAt),
});

export const toNoteVersion = (v: NoteVersion): z.infer<typeof NoteVersionSchema> => ({
  ...toNoteVersionSummary(v),
  content: v.content,
});

export const CreateNoteBodySchema = z.strictObject({
  name: z.string().describe('1 to 200 characters, unique in the project whatever its case'),
  content: z.string().default('').describe('Markdown, at most 2,000,000 characters'),
  standing_instruction: z.string().optional(),
});

export const UpdateNoteBodySchema = z.strictObject({
  name: z.string().optional(),
  content: z.string().optional().describe('New content makes a new version'),
  standing_instruction: z.string().optional(),
  base_version: z
    .number()
    .int()
    .min(1)
    .max(MAX_VERSION)
    .optional()
    .describe('The version the change is based on: when the note is at another version now, nothing is written (409)'),
});

const versionNumber = z.coerce.number().int().min(1).max(MAX_VERSION);

export const NoteDiffQuerySchema = z.object({
  from: versionNumber.describe('The version to diff from'),
  to: versionNumber.describe('The version to diff to'),
});

export const versionParam = versionNumber.describe('A version number: 1, 2, ...');
