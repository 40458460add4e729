import {
  conflict,
  createPrompt,
  deletePrompt,
  findSchemaVersion,
  listPrompts,
  listPromptVersions,
  type PromptRevision,
  promptCreator,
  promptRevisionOf,
  resolvePromptRevision,
  updatePrompt,
} from '@docagent/core';
import { z } from 'zod';
import { defineTool, type UndoneWrite } from '../../tools/tool.ts';
import { changedSince, recordedOutput, requireNewVersion } from '../../tools/undo-output.ts';
import { idField, iso, limitField, nameSearchField, preview, skipField, tagIdsField } from './shared.ts';
import { documentState } from './working-state.ts';

const promptNameField = z.string().trim().min(1).max(200);
const contentField = z.string().min(1).max(100_000);
const modelField = z.string().trim().min(1).max(200);
const schemaVersionField = z.number().int().min(1).max(1_000_000);

/** A revision without its content: what the model needs after writing one. */
const toSummary = (p: PromptRevision) => ({
  prompt_revid: p.promptRevid,
  prompt_id: p.promptId,
  prompt_version: p.promptVersion,
  name: p.name,
  schema_id: p.schemaId,
  schema_version: p.schemaVersion,
  model: p.model,
  tag_ids: p.tagIds,
});

export const getPromptTool = defineTool({
  name: 'get_prompt',
  description:
    'Read one prompt revision in full: its content (the instructions), its schema (id, version, schema_revid), model and tag ids. ' +
    '"default" reads the default prompt.',
  access: 'read_only',
  input: z.strictObject({ prompt_revid: idField('The prompt revision id (prompt_revid), or "default"') }),
  async run(context, input) {
    const { db } = context.services;
    const { orgId } = context.access;
    const prompt = await resolvePromptRevision(db, orgId, input.prompt_revid);
    const schema = prompt.schemaId
      ? await findSchemaVersion(db, orgId, prompt.schemaId, prompt.schemaVersion ?? undefined)
      : undefined;
    return {
      ...toSummary(prompt),
      content: prompt.content,
      schema: schema ? { schema_revid: schema.schemaRevid, name: schema.name, schema_version: schema.schemaVersion } : null,
      created_at: iso(prompt.createdAt),
      created_by: prompt.createdBy,
    };
  },
});

export const listPromptsTool = defineTool({
  name: 'list_prompts',
  description:
    'List the latest version of each prompt, most recently changed first: ids, name, schema, model, tags and the start of the content. ' +
    'With document_id: only the prompts that run on that document (the default prompt and those sharing a tag with it).',
  access: 'read_only',
  input: z.strictObject({
    skip: skipField,
    limit: limitField,
    name_search: nameSearchField,
    tag_ids: tagIdsField.optional().describe('Only prompts having all these tag ids'),
    document_id: z.string().trim().min(1).max(64).optional().describe('Only prompts that run on this document'),
  }),
  async run(context, input) {
    const page = await listPrompts(context.services.db, context.access.orgId, {
      skip: input.skip,
      limit: input.limit,
      nameSearch: input.name_search,
      tagIds: input.tag_ids,
      documentId: input.document_id,
    });
    return {
      prompts: page.prompts.map((p) => ({ ...toSummary(p), content_preview: preview(p.content, 160) })),
      total_count: page.total,
      skip: input.skip,
    };
  },
});

export const createPromptTool = defineTool({
  name: 'create_prompt',
  description:
    'Create a prompt: instructions the LLM follows to extract data from documents, answering in the linked schema. ' +
    'If a prompt with this name exists, this adds a new version of it. The prompt runs automatically on documents that have one of its tags. ' +
    'Call help_prompts for tips. Example: {"name": "Invoice fields", "content": "Extract the invoice number, the total amount due and the due date. ' +
    'Use null for a date that is not printed.", "schema_id": "6650c0ffee0123456789abcd", "tag_ids": ["6650c0ffee0123456789ab01"]}. ' +
    'Returns prompt_revid (use it with run_extraction) and prompt_id.',
  access: 'read_write',
  writeEffect: 'adds',
  input: z.strictObject({
    name: promptNameField.describe('Prompt name, e.g. "Invoice fields"; an existing name gets a new version'),
    content: contentField.describe('The instructions for the LLM'),
    schema_id: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .describe('The schema_id (not schema_revid) the answers must satisfy; omit for a free-form JSON answer'),
    schema_version: schemaVersionField.optional().describe('Pin a schema version; default the latest'),
    model: modelField
      .optional()
      .describe('Model id from list_llm_models, e.g. "openai:gpt-4.1-mini"; default the organization default'),
    tag_ids: tagIdsField.optional().describe('Tag ids: the prompt runs on documents having any of them'),
  }),
  // An existing name makes this a change of that prompt, so it belongs to whoever created it.
  target: async (context, input) => ({
    subject: false,
    creator: await promptCreator(context.services.db, context.access.orgId, { name: input.name }),
  }),
  async run(context, input) {
    const revision = await createPrompt(context.services.db, context.access, {
      name: input.name,
      content: input.content,
      schemaId: input.schema_id,
      schemaVersion: input.schema_version,
      model: input.model,
      tagIds: input.tag_ids,
    });
    documentState(context).prompt_revid = revision.promptRevid;
    const message =
      revision.promptVersion > 1 ? `Added version ${revision.promptVersion} of prompt "${revision.name}"` : 'Prompt created';
    return { message, ...toSummary(revision) };
  },
});

export const updatePromptTool = defineTool({
  name: 'update_prompt',
  description:
    'Change a prompt: saves a new version with a new prompt_revid. Omitted fields keep their values; schema_id null detaches the schema, ' +
    'model null returns to the organization default. A new schema_id without schema_version uses its latest version.',
  access: 'read_write',
  writeEffect: 'adds',
  input: z.strictObject({
    prompt_id: idField('The prompt id (prompt_id, stable across versions; not the prompt_revid)'),
    name: promptNameField.optional().describe('New name'),
    content: contentField.optional().describe('The complete new instructions'),
    schema_id: z.string().trim().min(1).max(64).nullable().optional().describe('New schema_id, or null for no schema'),
    schema_version: schemaVersionField.nullable().optional().describe('Schema version to pin; null for the latest'),
    model: modelField.nullable().optional().describe('New model id, or null for the organization default'),
    tag_ids: tagIdsField.optional().describe('The complete new list of tag ids'),
  }),
  target: async (context, input) => ({
    subject: false,
    creator: await promptCreator(context.services.db, context.access.orgId, { promptId: input.prompt_id }),
  }),
  async run(context, input) {
    const { revision, changed } = await updatePrompt(context.services.db, context.access, input.prompt_id, {
      name: input.name,
      content: input.content,
      schemaId: input.schema_id,
      schemaVersion: input.schema_version,
      model: input.model,
      tagIds: input.tag_ids,
    });
    documentState(context).prompt_revid = revision.promptRevid;
    return { message: changed ? `Saved version ${revision.promptVersion}` : 'No changes', changed, ...toSummary(revision) };
  },
  // The version before the call becomes current again as a new version; results of either revision stay.
  async undo(context, _input, output): Promise<UndoneWrite> {
    const applied = recordedOutput('update_prompt', savedPromptVersion, output);
    const { db } = context.services;
    const { orgId } = context.access;
    requireNewVersion('update_prompt', 'prompt', applied, applied.prompt_version);
    const current = await promptRevisionOf(db, orgId, applied.prompt_id);
    if (current.promptVersion !== applied.prompt_version) {
      throw changedSince(`Prompt "${current.name}"`, applied.prompt_version, current.promptVersion);
    }
    const versions = await listPromptVersions(db, orgId, applied.prompt_id);
    const previous = versions.find((v) => v.promptVersion === applied.prompt_version - 1);
    if (!previous) throw conflict(`Prompt "${current.name}" has no version ${applied.prompt_version - 1} to go back to.`);
    const { revision } = await updatePrompt(db, context.access, applied.prompt_id, {
      name: previous.name,
      content: previous.content,
      schemaId: previous.schemaId,
      schemaVersion: previous.schemaVersion,
      model: previous.model,
      tagIds: previous.tagIds,
    });
    const state = documentState(context);
    if (state.prompt_revid === applied.prompt_revid) state.prompt_revid = revision.promptRevid;
    return {
      artifact: 'prompt',
      ids: { prompt_id: revision.promptId, prompt_revid: revision.promptRevid },
      version: revision.promptVersion,
      restored_version: previous.promptVersion,
      message: `Prompt "${revision.name}" has version ${previous.promptVersion}'s content and settings again, saved as version ${revision.promptVersion}.`,
    };
  },
});

/** What undoing update_prompt reads of its output (`changed` is absent in outputs recorded before it was added). */
const savedPromptVersion = z.object({
  prompt_id: z.string(),
  prompt_revid: z.string(),
  prompt_version: z.number().int(),
  changed: z.boolean().optional(),
  message: z.string().optional(),
});

export const deletePromptTool = defineTool({
  name: 'delete_prompt',
  description: 'Delete a prompt, all its versions and their extraction results. The default prompt cannot be deleted.',
  access: 'read_write',
  writeEffect: 'removes',
  input: z.strictObject({ prompt_id: idField('The prompt id (prompt_id)') }),
  async run(context, input) {
    const { db } = context.services;
    const versions = await listPromptVersions(db, context.access.orgId, input.prompt_id);
    await deletePrompt(db, context.access.orgId, input.prompt_id);
    // The working state must not point at what no longer exists.
    const revids = new Set(versions.map((v) => v.promptRevid));
    const state = documentState(context);
    if (state.prompt_revid && revids.has(state.prompt_revid)) {
      delete state.prompt_revid;
      delete state.extraction;
    }
    return { message: `Prompt ${input.prompt_id} deleted`, prompt_id: input.prompt_id };
  },
});
