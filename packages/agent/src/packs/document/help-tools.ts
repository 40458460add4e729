import { z } from 'zod';
import { defineTool } from '../../tools/tool.ts';

export const SCHEMA_HELP = `# Writing schemas

A schema says what JSON an extraction must produce. It is stored as a response_format:

{"type": "json_schema",
 "json_schema": {"name": "invoice", "strict": true, "schema": { ...a JSON Schema (draft-07)... }}}

- json_schema.name: 1-64 letters, digits, "_" or "-".
- strict must be true: the LLM is then forced to answer in exactly this shape.
- Check a draft with validate_schema before create_schema; errors come with a path.

## Strict rules
1. The root schema is {"type": "object", ...}.
2. Every object has "additionalProperties": false.
3. Every property of an object is listed in its "required".
4. A value that may be missing stays required but allows null:
   "due_date": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]}
   (or "type": ["string", "null"]).
5. Arrays need "items" with one schema; an array of objects follows rules 2-3 in "items".
6. Not supported: oneOf, allOf, not, if/then/else, patternProperties, uniqueItems, examples, $schema, $id.
   Use anyOf, enum, description, format, pattern, minimum/maximum, minItems/maxItems instead.
7. Reuse parts with "$defs" and "$ref": "#/$defs/address".

## Good practice
- Use snake_case field names and a short "description" on each field: the LLM reads them.
- Numbers as "number" (amounts) or "integer" (counts); dates as strings with "format": "date" (YYYY-MM-DD).
- Use "enum" for fixed categories, e.g. {"type": "string", "enum": ["invoice", "credit_note"]}.
- Keep it flat and small: extract what people need, not every word.

## Example
{"type": "json_schema", "json_schema": {"name": "invoice", "strict": true, "schema": {
  "type": "object",
  "properties": {
    "invoice_number": {"type": "string", "description": "As printed"},
    "vendor": {"type": "string"},
    "total": {"type": "number", "description": "Amount due, without currency sign"},
    "currency": {"anyOf": [{"type": "string", "description": "ISO 4217 code"}, {"type": "null"}]},
    "line_items": {"type": "array", "items": {
      "type": "object",
      "properties": {"description": {"type": "string"}, "quantity": {"type": ["number", "null"]}, "amount": {"type": "number"}},
      "required": ["description", "quantity", "amount"],
      "additionalProperties": false}}
  },
  "required": ["invoice_number", "vendor", "total", "currency", "line_items"],
  "additionalProperties": false}}}

## Versions
create_schema with an existing name, or update_schema, saves a new version (new schema_revid, same schema_id).
A prompt points to a schema_id and a schema_version; update the prompt to use a newer version.
A schema used by a prompt cannot be deleted.`;

export const PROMPT_HELP = `# Writing prompts

A prompt is the instruction the LLM follows to extract data from a document's text.
It has: name, content (the instructions), optionally schema_id (+ schema_version) for the answer's shape,
model (from list_llm_models; default: the organization's default model) and tag_ids.

## Writing the content
- Say what kind of document to expect and what to extract, field by field when it helps.
- Say how to handle missing information ("use null when the due date is not printed").
- Give formats: dates as YYYY-MM-DD, amounts as plain numbers, names exactly as written.
- Resolve ambiguity: which total (gross or net), which date (issue or due), which party is the vendor.
- Keep it short; the schema's field descriptions also guide the LLM. Do not repeat the schema as JSON.
- Without a schema the LLM answers with a free-form JSON object.

## Tags decide where a prompt runs
- After a document's text is ready, every prompt sharing a tag with the document runs on it.
- The "default" prompt (a short summary) runs on every document and cannot be deleted;
  "default" can be used wherever a prompt_revid is expected.
- To make a new prompt run on a kind of document: create_tag (or list_tags), put the tag on the
  documents (update_document tag_ids) and on the prompt (tag_ids).

## Versions and testing
- create_prompt with an existing name, or update_prompt, saves a new version with a new prompt_revid.
- Test with run_extraction on the current document, read the result, fix the prompt or schema, run again.
- Correct a single value of a result with update_extraction_field.

## Example
create_prompt {"name": "Invoice fields", "schema_id": "<schema_id>", "tag_ids": ["<invoice tag id>"],
 "content": "This is an invoice. Extract the invoice number, vendor, total amount due, currency and line items. Use null for values that are not printed. Copy numbers exactly; write amounts without thousands separators."}`;

export const helpSchemas = defineTool({
  name: 'help_schemas',
  description:
    'How to write a schema (response_format): the envelope, strict rules, nullable fields, arrays of objects, an example.',
  access: 'read_only',
  input: z.strictObject({}),
  async run() {
    return { help: SCHEMA_HELP };
  },
});

export const helpPrompts = defineTool({
  name: 'help_prompts',
  description:
    'How to write a prompt: content tips, schemas, models, tags that decide which documents it runs on, the default prompt.',
  access: 'read_only',
  input: z.strictObject({}),
  async run() {
    return { help: PROMPT_HELP };
  },
});
