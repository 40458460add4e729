import { isDeepStrictEqual } from 'node:util';
import {
  conflict,
  DEFAULT_PROMPT_REVID,
  type ExtractionResult,
  findExtractionResult,
  getDocument,
  InvalidSchemaError,
  listExtractionResults,
  notFound,
  resolvePromptRevision,
  runExtraction,
  updateExtractionResult,
} from '@docagent/core';
import { z } from 'zod';
import { defineTool, type ToolContext, type UndoContext, type UndoneWrite } from '../../tools/tool.ts';
import { recordedOutput } from '../../tools/undo-output.ts';
import { documentIdField, documentIdOf, documentTarget, iso, jsonValueField, preview, subjectDocumentId } from './shared.ts';
import { documentState } from './working-state.ts';

const promptRevidField = z.string().trim().min(1).max(64);

/** A result as the model needs it: the current values, and the model's original only when a person changed them. */
const toResult = (r: ExtractionResult) => ({
  document_id: r.documentId,
  prompt_revid: r.promptRevid,
  prompt_id: r.promptId,
  prompt_version: r.promptVersion,
  prompt_name: r.promptName,
  model: r.model,
  updated_llm_result: r.updatedLlmResult,
  ...(r.isEdited ? { llm_result: r.llmResult } : {}),
  is_edited: r.isEdited,
  is_verified: r.isVerified,
  updated_at: iso(r.updatedAt),
});

/** The working extraction is the values of the working prompt's result. */
const rememberExtraction = (context: ToolContext, r: ExtractionResult) => {
  const state = documentState(context);
  state.prompt_revid = r.promptRevid;
  state.extraction = r.updatedLlmResult;
};

/** The stored result of a prompt revision for a document, or an error saying how to get one. */
async function storedResult(context: ToolContext, documentId: string, promptRevid: string) {
  const { db } = context.services;
  const { orgId } = context.access;
  await getDocument(db, orgId, documentId);
  const prompt = await resolvePromptRevision(db, orgId, promptRevid);
  const result = await findExtractionResult(db, orgId, documentId, prompt.promptRevid);
  if (!result) {
    return {
      error: `Document ${documentId} has no result of prompt revision ${prompt.promptRevid} ("${prompt.name}") yet; run it with run_extraction.`,
    };
  }
  return { result };
}

export const getExtractionResultTool = defineTool({
  name: 'get_extraction_result',
  description:
    'Read a stored extraction result of a document: the values a prompt revision extracted (updated_llm_result, including edits). ' +
    'Without prompt_revid: the latest extraction of this conversation, or else the newest result of every prompt that ran on the document.',
  access: 'read_only',
  input: z.strictObject({
    prompt_revid: promptRevidField
      .optional()
      .describe('The prompt revision whose result to read; "default" is the default prompt'),
    document_id: documentIdField,
  }),
  async run(context, input) {
    const documentId = documentIdOf(context, input.document_id);
    // The working extraction belongs to the conversation's document.
    const state = documentState(context);
    const working = documentId === subjectDocumentId(context) && state.extraction ? state.prompt_revid : undefined;
    const promptRevid = input.prompt_revid ?? working;
    if (promptRevid !== undefined) {
      const found = await storedResult(context, documentId, promptRevid);
      return 'error' in found ? found : toResult(found.result);
    }
    await getDocument(context.services.db, context.access.orgId, documentId);
    const results = await listExtractionResults(context.services.db, context.access.orgId, documentId);
    if (results.length === 0) {
      return { document_id: documentId, results: [], note: 'No prompt has run on this document yet; use run_extraction.' };
    }
    return { document_id: documentId, results: results.map(toResult) };
  },
});

export const runExtractionTool = defineTool({
  name: 'run_extraction',
  description:
    'Run a prompt revision on a document (the LLM reads its text and answers in the prompt schema), store the result and return the extracted values. ' +
    'prompt_revid defaults to the prompt last created or updated in this conversation, else "default" (the default summary prompt). ' +
    'Runs again even when a result exists (force defaults to true). ' +
    'Example: {"prompt_revid": "6650c0ffee0123456789abcd"} after create_prompt returned that prompt_revid; {} to run the current prompt on the current document.',
  access: 'read_write',
  writeEffect: 'replaces',
  input: z.strictObject({
    prompt_revid: promptRevidField.optional().describe('The prompt revision to run; default: the working prompt, else "default"'),
    document_id: documentIdField,
    force: z
      .boolean()
      .optional()
      .describe('true (default): run the model again; false: return a stored result when there is one'),
  }),
  target: documentTarget,
  async run(context, input) {
    const documentId = documentIdOf(context, input.document_id);
    const promptRevid = input.prompt_revid ?? documentState(context).prompt_revid ?? DEFAULT_PROMPT_REVID;
    const { result, reused } = await runExtraction(context.services.extraction, context.access.orgId, documentId, promptRevid, {
      force: input.force ?? true,
      signal: context.abortSignal,
      onUsage: context.addUsage,
    });
    rememberExtraction(context, result);
    return {
      document_id: result.documentId,
      prompt_revid: result.promptRevid,
      prompt_name: result.promptName,
      model: result.model,
      reused,
      updated_llm_result: result.updatedLlmResult,
    };
  },
});

type PathStep = string | number;

function parsePath(path: string): PathStep[] | string {
  const steps = path.split('.');
  if (steps.some((s) => s === '')) return `path "${path}" has an empty part; write it like line_items.0.amount`;
  return steps.map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A copy of `root` with the value at `steps` replaced (an array index equal to the length appends); or why it cannot be. */
function setAtPath(
  root: Record<string, unknown>,
  steps: PathStep[],
  value: unknown,
): { ok: true; data: Record<string, unknown>; previous: unknown; existed: boolean } | { ok: false; error: string } {
  const data = structuredClone(root);
  let node: unknown = data;
  for (const [i, step] of steps.entries()) {
    const at = steps.slice(0, i).join('.') || '(root)';
    const last = i === steps.length - 1;
    if (Array.isArray(node)) {
      if (typeof step !== 'number')
        return { ok: false, error: `${at} is an array; use an index (0 to ${node.length - 1}), not "${step}"` };
      if (step > node.length || (!last && step >= node.length)) {
        return { ok: false, error: `${at} has ${node.length} item(s); index ${step} is out of range` };
      }
      if (last) {
        const previous = node[step];
        const existed = step < node.length;
        node[step] = value;
        return { ok: true, data, previous, existed };
      }
      node = node[step];
    } else if (isObject(node)) {
      const key = String(step);
      if (last) {
        const previous = node[key];
        const existed = Object.hasOwn(node, key);
        node[key] = value;
        return { ok: true, data, previous, existed };
      }
      if (!Object.hasOwn(node, key)) {
        const keys = Object.keys(node).slice(0, 30).join(', ');
        return { ok: false, error: `${at} has no field "${key}"; its fields are: ${keys || 'none'}` };
      }
      node = node[key];
    } else {
      return {
        ok: false,
        error: `${at} is ${node === null ? 'null' : typeof node}, so it has no "${step}"; set ${at} itself instead`,
      };
    }
  }
  return { ok: false, error: 'path is empty' };
}

export const updateExtractionField = defineTool({
  name: 'update_extraction_field',
  description:
    'Correct one field of a stored extraction result. path is a dot path into the result, array items by index ' +
    '(e.g. "total", "vendor.name", "line_items.0.amount"; an index equal to the array length appends). value is the new JSON value. ' +
    "The changed result must still satisfy the prompt's schema. prompt_revid defaults to the latest extraction of this conversation.",
  access: 'read_write',
  writeEffect: 'replaces',
  input: z.strictObject({
    path: z.string().trim().min(1).max(500).describe('Dot path of the field, e.g. "line_items.0.amount"'),
    value: jsonValueField('The new value: any JSON (string, number, boolean, null, object or array)'),
    prompt_revid: promptRevidField
      .optional()
      .describe('The prompt revision whose result to change; default: the latest extraction, else the working prompt'),
    document_id: documentIdField,
  }),
  target: documentTarget,
  async run(context, input) {
    const documentId = documentIdOf(context, input.document_id);
    const promptRevid = input.prompt_revid ?? documentState(context).prompt_revid ?? DEFAULT_PROMPT_REVID;
    const steps = parsePath(input.path);
    if (typeof steps === 'string') return { error: steps };
    const found = await storedResult(context, documentId, promptRevid);
    if ('error' in found) return found;
    const current = found.result;
    const value = input.value;
    const patched = setAtPath(current.updatedLlmResult, steps, value);
    if (!patched.ok) return { error: `Cannot set ${input.path}: ${patched.error}. Nothing was changed.` };
    try {
      const updated = await updateExtractionResult(context.services.db, context.access.orgId, documentId, current.promptRevid, {
        updatedLlmResult: patched.data,
      });
      rememberExtraction(context, updated);
      return {
        document_id: updated.documentId,
        prompt_revid: updated.promptRevid,
        path: input.path,
        previous_value: patched.previous ?? null,
        // The field was added (a new key, an appended item): undoing the call removes it.
        ...(patched.existed ? {} : { previous_absent: true }),
        value,
        is_edited: updated.isEdited,
        updated_llm_result: updated.updatedLlmResult,
      };
    } catch (error) {
      if (error instanceof InvalidSchemaError) {
        const problems = error.problems
          .slice(0, 10)
          .map((p) => `${p.path || '(root)'}: ${p.message}`)
          .join('; ');
        return { error: `Setting ${input.path} would break the prompt's schema (${problems}). Nothing was changed.` };
      }
      throw error;
    }
  },
  undo: (context, _input, output) => undoFieldEdit(context, output),
});

/** What undoing update_extraction_field reads of its output: where it wrote, what was there, and the result it left. */
const editedField = z.object({
  document_id: z.string(),
  prompt_revid: z.string(),
  path: z.string(),
  previous_value: z.unknown(),
  previous_absent: z.boolean().optional(),
  updated_llm_result: z.record(z.string(), z.unknown()),
});

/**
 * Puts the field's previous value back (removes a field the call added). A result has no versions,
 * so "changed since" is the values differing from those the call left.
 */
async function undoFieldEdit(context: UndoContext, output: unknown): Promise<UndoneWrite> {
  const applied = recordedOutput('update_extraction_field', editedField, output);
  const { db } = context.services;
  const { orgId } = context.access;
  const what = `The extraction result of prompt revision ${applied.prompt_revid} for document ${applied.document_id}`;
  const current = await findExtractionResult(db, orgId, applied.document_id, applied.prompt_revid);
  if (!current) throw notFound(what);
  if (!isDeepStrictEqual(current.updatedLlmResult, applied.updated_llm_result)) {
    throw conflict(
      `${what} changed after this call set ${applied.path} (it was run again or edited), and undoing the call would overwrite that later change. Edit the field by hand instead.`,
    );
  }
  const steps = parsePath(applied.path);
  if (typeof steps === 'string') throw conflict(`This call's path cannot be read back (${steps}), so it cannot be undone.`);
  const restored = applied.previous_absent
    ? removeAtPath(current.updatedLlmResult, steps)
    : setAtPath(current.updatedLlmResult, steps, applied.previous_value);
  if (!restored.ok) throw conflict(`${applied.path} cannot be put back: ${restored.error}.`);
  const updated = await updateExtractionResult(db, orgId, applied.document_id, applied.prompt_revid, {
    updatedLlmResult: restored.data,
  });
  const state = documentState(context);
  if (state.prompt_revid === updated.promptRevid && state.extraction !== undefined) state.extraction = updated.updatedLlmResult;
  const shown = applied.previous_absent ? 'removed again' : `back to ${preview(JSON.stringify(applied.previous_value), 120)}`;
  return {
    artifact: 'extraction_result',
    ids: { document_id: updated.documentId, prompt_revid: updated.promptRevid },
    version: null,
    restored_version: null,
    message: `${applied.path} of the extraction result is ${shown}.`,
  };
}

/** A copy of `root` without the field at `steps` (an array item is taken out); or why it cannot be. */
function removeAtPath(
  root: Record<string, unknown>,
  steps: PathStep[],
): { ok: true; data: Record<string, unknown> } | { ok: false; error: string } {
  const data = structuredClone(root);
  let node: unknown = data;
  for (const step of steps.slice(0, -1)) {
    node = Array.isArray(node) ? node[step as number] : isObject(node) ? node[String(step)] : undefined;
  }
  const last = steps.at(-1);
  if (Array.isArray(node) && typeof last === 'number' && last < node.length) node.splice(last, 1);
  else if (isObject(node) && last !== undefined && Object.hasOwn(node, String(last))) delete node[String(last)];
  else return { ok: false, error: 'the field it added is no longer there' };
  return { ok: true, data };
}
