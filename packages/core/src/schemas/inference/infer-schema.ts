import { getDocumentPageTexts } from '../../documents/document-text.ts';
import { invalidInput } from '../../errors.ts';
import type { ExtractionServices } from '../../extraction/run-extraction.ts';
import { callLlm } from '../../llm/llm-call.ts';
import type { TokenUsage } from '../../llm/usage.ts';
import { type ResponseFormat, validateResponseFormat } from '../schema-validation.ts';
import { fieldsOfSample } from './field-inventory.ts';
import { type MergedField, mergeSightings, strictSchemaOf } from './schema-merge.ts';

export const INFER_LIMITS = { documents: 10, charsPerDocument: 60_000 };

export interface InferSchemaRequest {
  orgId: string;
  documentIds: string[];
  /** The schema's name in the envelope (default "inferred"). */
  name?: string;
  model?: string | null;
  signal?: AbortSignal;
  onUsage?: (usage: TokenUsage, costUsd: number | null) => void;
}

export interface InferredSchema {
  responseFormat: ResponseFormat;
  fields: MergedField[];
  documents: number;
}

/**
 * One strict schema that covers sample documents: the model lists each sample's fields (one call
 * per document), and they are merged here: a field only some samples have may be null.
 */
export async function inferSchema(services: ExtractionServices, request: InferSchemaRequest): Promise<InferredSchema> {
  const ids = [...new Set(request.documentIds)];
  if (ids.length === 0 || ids.length > INFER_LIMITS.documents) {
    throw invalidInput(`Give 1 to ${INFER_LIMITS.documents} sample documents; ${ids.length} were given.`);
  }
  const samples = [];
  // A document whose text is not ready (or failed) is a conflict that says so.
  for (const id of ids) {
    const { document, pages } = await getDocumentPageTexts(services.db, request.orgId, id);
    const text = pages.map((p) => p.text).join('\n\n');
    if (text.trim() === '') throw invalidInput(`Document "${document.name}" has no text to learn fields from; leave it out.`);
    samples.push({ name: document.name, text: text.slice(0, INFER_LIMITS.charsPerDocument) });
  }
  const perSample = [];
  for (const sample of samples) {
    const outcome = await callLlm(
      services.llm,
      { orgId: request.orgId, model: request.model ?? null, operation: 'schema_inference' },
      (context) => fieldsOfSample(context, sample, request.signal),
    );
    request.onUsage?.(outcome.usage, outcome.costUsd);
    perSample.push(outcome.value);
  }
  const fields = mergeSightings(perSample);
  if (fields.length === 0) throw invalidInput('The samples showed no field to extract; try other documents.');
  const checked = validateResponseFormat(strictSchemaOf(fields, request.name ?? 'inferred'));
  if (!checked.valid) {
    throw invalidInput(`The merged schema is not valid: ${checked.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}.`);
  }
  return { responseFormat: checked.responseFormat, fields, documents: samples.length };
}
