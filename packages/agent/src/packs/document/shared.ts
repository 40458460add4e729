import { invalidInput } from '@docagent/core';
import { z } from 'zod';
import type { ToolContext, WriteTarget } from '../../tools/tool.ts';

/** Helpers shared by the tools of the document agent. */

export const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** The conversation's document, when it is about one. */
export const subjectDocumentId = (context: ToolContext): string | undefined =>
  context.subject.kind === 'document' ? context.subject.id : undefined;

/** The document a tool works on: the one given, or the conversation's document. */
export function documentIdOf(context: ToolContext, documentId: string | undefined): string {
  const id = documentId ?? subjectDocumentId(context);
  if (!id) throw invalidInput('document_id is required: this conversation is not about one document.');
  return id;
}

/** An optional document id: the current document when omitted. */
export const documentIdField = z.string().min(1).max(64).optional().describe('Defaults to the current document');

/** What a call on a document changes: the conversation's own document, or another one. */
export const documentTarget = async (context: ToolContext, input: { document_id?: string }): Promise<WriteTarget> => ({
  subject: documentIdOf(context, input.document_id) === subjectDocumentId(context),
  creator: null,
});

export const idField = (what: string) => z.string().trim().min(1).max(64).describe(what);

export const skipField = z.number().int().min(0).max(100_000).default(0).describe('How many items to skip (paging)');
export const limitField = z.number().int().min(1).max(100).default(20).describe('How many items to return, 1-100');
export const nameSearchField = z
  .string()
  .max(200)
  .optional()
  .describe('Only items whose name contains this text (case-insensitive)');
export const tagIdsField = z.array(z.string().min(1).max(64)).max(100);

/**
 * A JSON value the model may send either as JSON or as a string of JSON (models often
 * stringify nested objects). Strings that do not parse as an object or array stay strings.
 */
export function parseJsonArgument(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return value;
  try {
    return JSON.parse(trimmed);
  } catch {
    return value;
  }
}

/** A required argument of any JSON type (z.json() would give providers a recursive JSON Schema). */
export const jsonValueField = (description: string) =>
  z
    .unknown()
    .refine((v) => v !== undefined, { message: 'is required' })
    .describe(description);

/** A string shortened to `max` characters, for previews in lists. */
export const preview = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
