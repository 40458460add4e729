import {
  createSchema,
  deleteSchema,
  findSchemaVersion,
  getSchemaRevision,
  listSchemas,
  listSchemaVersions,
  type SchemaRevision,
  schemaCreator,
  updateSchema,
  validateDataAgainstSchema,
  validateResponseFormat,
} from '@docagent/core';
import { z } from 'zod';
import { defineTool, type UndoneWrite } from '../../tools/tool.ts';
import { changedSince, recordedOutput, requireNewVersion } from '../../tools/undo-output.ts';
import { idField, iso, jsonValueField, limitField, nameSearchField, parseJsonArgument, skipField } from './shared.ts';
import { documentState } from './working-state.ts';

const EXAMPLE_RESPONSE_FORMAT =
  '{"type": "json_schema", "json_schema": {"name": "invoice", "strict": true, "schema": {"type": "object", ' +
  '"properties": {"invoice_number": {"type": "string", "description": "As printed"}, "total": {"type": "number", "description": "Amount due"}, ' +
  '"due_date": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}], "description": "YYYY-MM-DD, null if absent"}}, ' +
  '"required": ["invoice_number", "total", "due_date"], "additionalProperties": false}}}';

const schemaNameField = z.string().trim().min(1).max(200);
const responseFormatField = (description: string) => jsonValueField(description);

/** A revision without its response_format: what the model needs after writing one. */
const toSummary = (s: SchemaRevision) => ({
  schema_revid: s.schemaRevid,
  schema_id: s.schemaId,
  schema_version: s.schemaVersion,
  name: s.name,
});

const toBody = (s: SchemaRevision) => ({
  ...toSummary(s),
  response_format: s.responseFormat,
  created_at: iso(s.createdAt),
  created_by: s.createdBy,
});

const topLevelFields = (s: SchemaRevision): string[] => {
  const properties = s.responseFormat.json_schema.schema.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
};

export const getSchemaTool = defineTool({
  name: 'get_schema',
  description:
    'Read one schema revision in full: its response_format (the JSON Schema extraction results must satisfy), name and version.',
  access: 'read_only',
  input: z.strictObject({ schema_revid: idField('The schema revision id (schema_revid)') }),
  async run(context, input) {
    return toBody(await getSchemaRevision(context.services.db, context.access.orgId, input.schema_revid));
  },
});

export const listSchemasTool = defineTool({
  name: 'list_schemas',
  description:
    'List the latest version of each schema, most recently changed first: ids, name, version and top-level field names. Use get_schema for the full definition.',
  access: 'read_only',
  input: z.strictObject({ skip: skipField, limit: limitField, name_search: nameSearchField }),
  async run(context, input) {
    const page = await listSchemas(context.services.db, context.access.orgId, {
      skip: input.skip,
      limit: input.limit,
      nameSearch: input.name_search,
    });
    return {
      schemas: page.schemas.map((s) => ({ ...toSummary(s), fields: topLevelFields(s) })),
      total_count: page.total,
      skip: input.skip,
    };
  },
});

export const validateSchemaTool = defineTool({
  name: 'validate_schema',
  description:
    'Check a response_format without saving it: the {"type": "json_schema", "json_schema": {"name", "schema", "strict": true}} envelope, ' +
    'valid draft-07, and the strict rules (every object has "additionalProperties": false and lists every property in "required"). ' +
    'Returns {valid, errors: [{path, message}]}.',
  access: 'read_only',
  input: z.strictObject({
    response_format: responseFormatField('The response_format object to check (a JSON string of it is accepted too)'),
  }),
  async run(_context, input) {
    const result = validateResponseFormat(parseJsonArgument(input.response_format));
    return result.valid ? { valid: true, errors: [] } : { valid: false, errors: result.errors };
  },
});

export const validateAgainstSchemaTool = defineTool({
  name: 'validate_against_schema',
  description:
    'Check data (e.g. an extraction result) against a stored schema revision. Returns {valid, errors: [{path, message}]}, paths like "line_items.0.amount".',
  access: 'read_only',
  input: z.strictObject({
    schema_revid: idField('The schema revision to check against'),
    data: jsonValueField('The JSON object to check'),
  }),
  async run(context, input) {
    return validateDataAgainstSchema(
      context.services.db,
      context.access.orgId,
      input.schema_revid,
      parseJsonArgument(input.data),
    );
  },
});

export const createSchemaTool = defineTool({
  name: 'create_schema',
  description:
    'Create a schema: the JSON structure extraction results must have. If a schema with this name exists, this adds a new version of it. ' +
    'response_format must pass validate_schema: root type object, every object with "additionalProperties": false and all its properties in "required"; ' +
    'a value that may be absent is required but nullable via anyOf with {"type": "null"}. Call help_schemas for the rules. ' +
    `Example: {"name": "Invoice", "response_format": ${EXAMPLE_RESPONSE_FORMAT}}. Returns schema_revid, schema_id and schema_version.`,
  access: 'read_write',
  writeEffect: 'adds',
  input: z.strictObject({
    name: schemaNameField.describe('Schema name shown to people, e.g. "Invoice"; an existing name gets a new version'),
    response_format: responseFormatField('The full response_format object, as in the example'),
  }),
  // An existing name makes this a change of that schema, so it belongs to whoever created it.
  target: async (context, input) => ({
    subject: false,
    creator: await schemaCreator(context.services.db, context.access.orgId, { name: input.name }),
  }),
  async run(context, input) {
    const revision = await createSchema(context.services.db, context.access, {
      name: input.name,
      responseFormat: parseJsonArgument(input.response_format),
    });
    documentState(context).schema_revid = revision.schemaRevid;
    const message =
      revision.schemaVersion > 1 ? `Added version ${revision.schemaVersion} of schema "${revision.name}"` : 'Schema created';
    return { message, ...toSummary(revision) };
  },
});

export const updateSchemaTool = defineTool({
  name: 'update_schema',
  description:
    'Change a schema: saves a new version (older versions stay, prompts pinned to them keep working). Give a new name, a new full response_format, or both. ' +
    'To make a prompt use the new version, update_prompt with schema_id and schema_version.',
  access: 'read_write',
  writeEffect: 'adds',
  input: z.strictObject({
    schema_id: idField('The schema id (schema_id, stable across versions; not the schema_revid)'),
    name: schemaNameField.optional().describe('New name'),
    response_format: z.unknown().optional().describe('The complete new response_format (same format as create_schema)'),
  }),
  target: async (context, input) => ({
    subject: false,
    creator: await schemaCreator(context.services.db, context.access.orgId, { schemaId: input.schema_id }),
  }),
  async run(context, input) {
    const { revision, changed } = await updateSchema(context.services.db, context.access, input.schema_id, {
      name: input.name,
      responseFormat: input.response_format === undefined ? undefined : parseJsonArgument(input.response_format),
    });
    documentState(context).schema_revid = revision.schemaRevid;
    return { message: changed ? `Saved version ${revision.schemaVersion}` : 'No changes', changed, ...toSummary(revision) };
  },
  // The version before the call becomes current again as a new version: prompts pinned to either keep working.
  async undo(context, _input, output): Promise<UndoneWrite> {
    const applied = recordedOutput('update_schema', savedSchemaVersion, output);
    const { db } = context.services;
    const { orgId } = context.access;
    requireNewVersion('update_schema', 'schema', applied, applied.schema_version);
    const current = await findSchemaVersion(db, orgId, applied.schema_id);
    if (current.schemaVersion !== applied.schema_version) {
      throw changedSince(`Schema "${current.name}"`, applied.schema_version, current.schemaVersion);
    }
    const previous = await findSchemaVersion(db, orgId, applied.schema_id, applied.schema_version - 1);
    const { revision } = await updateSchema(db, context.access, applied.schema_id, {
      name: previous.name,
      responseFormat: previous.responseFormat,
    });
    const state = documentState(context);
    if (state.schema_revid === applied.schema_revid) state.schema_revid = revision.schemaRevid;
    return {
      artifact: 'schema',
      ids: { schema_id: revision.schemaId, schema_revid: revision.schemaRevid },
      version: revision.schemaVersion,
      restored_version: previous.schemaVersion,
      message: `Schema "${revision.name}" has version ${previous.schemaVersion}'s definition again, saved as version ${revision.schemaVersion}.`,
    };
  },
});

/** What undoing update_schema reads of its output (`changed` is absent in outputs recorded before it was added). */
const savedSchemaVersion = z.object({
  schema_id: z.string(),
  schema_revid: z.string(),
  schema_version: z.number().int(),
  changed: z.boolean().optional(),
  message: z.string().optional(),
});

export const deleteSchemaTool = defineTool({
  name: 'delete_schema',
  description: 'Delete a schema and all its versions. Fails while a prompt uses it: change or delete those prompts first.',
  access: 'read_write',
  writeEffect: 'removes',
  input: z.strictObject({ schema_id: idField('The schema id (schema_id)') }),
  async run(context, input) {
    const { db } = context.services;
    const versions = await listSchemaVersions(db, context.access.orgId, input.schema_id);
    await deleteSchema(db, context.access.orgId, input.schema_id);
    const state = documentState(context);
    if (state.schema_revid && versions.some((v) => v.schemaRevid === state.schema_revid)) delete state.schema_revid;
    return { message: `Schema ${input.schema_id} deleted`, schema_id: input.schema_id };
  },
});
