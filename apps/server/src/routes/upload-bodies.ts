import { invalidInput, type UploadDatasetTarget, type UploadFile } from '@docagent/core';
import type { Multipart } from '@fastify/multipart';
import { z } from 'zod';
import { checkStorable } from '../http/input-hygiene.ts';

/** How upload requests carry files, turned into the service's `UploadFile`s. */

export const JsonUploadBodySchema = z.strictObject({
  documents: z
    .array(
      z.strictObject({
        name: z.string().max(1000),
        content: z.string().describe('The file as base64, or as a data URL (data:<type>;base64,...)'),
        tag_ids: z.array(z.string()).max(100).optional(),
        metadata: z.record(z.string(), z.string()).optional(),
        auto_create: z
          .boolean()
          .optional()
          .describe("Let the agent propose a schema and a prompt once the text is ready; default: the organization's setting"),
      }),
    )
    .min(1),
  dataset_id: z.string().min(1).max(64).optional().describe('Add the files (CSV, TSV, XLSX) as tables of this dataset'),
  create_dataset: z.string().optional().describe('Make a dataset of this name holding the files (CSV, TSV, XLSX) as tables'),
});

/** The dataset a JSON upload names, if any. */
export const datasetTargetOf = (body: z.infer<typeof JsonUploadBodySchema>): UploadDatasetTarget => ({
  datasetId: body.dataset_id,
  createDataset: body.create_dataset,
});

const DATA_URL = /^data:[^,]*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function decodeContent(content: string, index: number): Buffer {
  const payload = content.replace(DATA_URL, '').replace(/\s+/g, '');
  if (!BASE64.test(payload)) {
    throw invalidInput(`documents.${index}.content is neither base64 nor a base64 data URL; encode the file's bytes as base64.`);
  }
  return Buffer.from(payload, 'base64');
}

export function filesFromJson(body: z.infer<typeof JsonUploadBodySchema>): UploadFile[] {
  return body.documents.map((doc, index) => {
    const bytes = decodeContent(doc.content, index);
    return {
      name: doc.name,
      content: (async function* () {
        yield bytes;
      })(),
      tagIds: doc.tag_ids,
      metadata: doc.metadata,
      autoCreate: doc.auto_create,
    };
  });
}

export const parseTagIds = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function parseMetadataField(value: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw invalidInput('The metadata field must be a JSON object of strings, e.g. {"source":"email"}.');
  }
  const result = z.record(z.string(), z.string()).safeParse(parsed);
  if (!result.success) throw invalidInput('The metadata field must be a JSON object of strings, e.g. {"source":"email"}.');
  checkStorable(result.data, 'metadata');
  return result.data;
}

function parseAutoCreateField(value: string): boolean {
  const result = z.stringbool().safeParse(value.trim());
  if (!result.success) throw invalidInput(`The auto_create field must be true or false, not "${value.slice(0, 20)}".`);
  return result.data;
}

const FIELDS = new Set(['tag_ids', 'metadata', 'auto_create', 'dataset_id', 'create_dataset']);

/**
 * The files of a multipart upload, read one at a time as they stream in. The optional
 * `tag_ids` (comma-separated), `metadata` (JSON) and `auto_create` (true or false) fields apply
 * to every file and must come before the files, since a file is stored as soon as it has arrived;
 * so must `dataset_id` or `create_dataset`, which are written into `target` as they arrive.
 */
export async function* filesFromMultipart(
  parts: AsyncIterableIterator<Multipart>,
  target: UploadDatasetTarget,
): AsyncGenerator<UploadFile> {
  let tagIds: string[] = [];
  let metadata: Record<string, string> = {};
  let autoCreate: boolean | undefined;
  let sawFile = false;
  for await (const part of parts) {
    if (part.type === 'file') {
      sawFile = true;
      yield { name: part.filename, content: part.file, tagIds, metadata, autoCreate };
      continue;
    }
    if (!FIELDS.has(part.fieldname)) {
      throw invalidInput(
        `Unknown form field "${part.fieldname}"; send files, and optionally tag_ids, metadata, auto_create, and dataset_id or create_dataset.`,
      );
    }
    if (sawFile) throw invalidInput(`Send the ${part.fieldname} field before the files it applies to.`);
    const value = String(part.value);
    checkStorable(value, part.fieldname);
    if (part.fieldname === 'tag_ids') tagIds = parseTagIds(value);
    else if (part.fieldname === 'metadata') metadata = parseMetadataField(value);
    else if (part.fieldname === 'auto_create') autoCreate = parseAutoCreateField(value);
    else if (part.fieldname === 'dataset_id') target.datasetId = value.trim();
    else target.createDataset = value;
  }
}
