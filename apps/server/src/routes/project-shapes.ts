import type { ProjectWithContents } from '@docagent/core';
import { z } from 'zod';
import { iso } from './schemas.ts';

/** Projects on the wire (seed 001's field names). */

export const ProjectDocumentSchema = z.object({
  document_id: z.string(),
  document_name: z.string(),
  mime_type: z.string().nullable(),
  added_at: z.string(),
});

export const ProjectSchema = z.object({
  project_id: z.string(),
  name: z.string(),
  description: z.string(),
  dataset_id: z
    .string()
    .nullable()
    .describe("The dataset of the project's tables (its CSV, TSV and XLSX documents); null until one is linked"),
  note_count: z.number(),
  document_count: z.number(),
  documents: z.array(ProjectDocumentSchema).describe('Documents of the organization linked to the project, oldest link first'),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const toProject = (p: ProjectWithContents): z.infer<typeof ProjectSchema> => ({
  project_id: p.id,
  name: p.name,
  description: p.description,
  dataset_id: p.datasetId,
  note_count: p.noteCount,
  document_count: p.documentCount,
  created_by: p.createdBy,
  created_at: iso(p.createdAt),
  updated_at: iso(p.updatedAt),
  documents: p.documents.map((d) => ({
    document_id: d.documentId,
    document_name: d.name,
    mime_type: d.mimeType,
    added_at: iso(d.addedAt),
  })),
});

export const CreateProjectBodySchema = z.strictObject({
  name: z.string().describe('1 to 200 characters, unique in the organization whatever its case'),
  description: z.string().optional(),
});

export const UpdateProjectBodySchema = z.strictObject({
  name: z.string().optional(),
  description: z.string().optional(),
});

export const AddProjectDocumentBodySchema = z.strictObject({
  document_id: z.string().min(1).max(64).describe('A document of the organization'),
});
