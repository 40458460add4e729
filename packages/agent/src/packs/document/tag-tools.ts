import { createTag, deleteTag, getTag, listTags, type TagRecord, updateTag } from '@docagent/core';
import { z } from 'zod';
import { defineTool } from '../../tools/tool.ts';
import { idField, limitField, nameSearchField, skipField } from './shared.ts';

const tagNameField = z.string().trim().min(1).max(64);
const colorField = z
  .string()
  .regex(/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i, 'must be a CSS hex color, #rgb or #rrggbb, such as #4f46e5');
const descriptionField = z.string().max(500);

const toTag = (t: TagRecord) => ({ id: t.id, name: t.name, color: t.color, description: t.description });

export const getTagTool = defineTool({
  name: 'get_tag',
  description: 'Read one tag: name, color and description.',
  access: 'read_only',
  input: z.strictObject({ tag_id: idField('The tag id') }),
  async run(context, input) {
    return toTag(await getTag(context.services.db, context.access.orgId, input.tag_id));
  },
});

export const listTagsTool = defineTool({
  name: 'list_tags',
  description:
    "List the organization's tags by name. Tags group documents; a prompt runs on the documents sharing one of its tags.",
  access: 'read_only',
  input: z.strictObject({ skip: skipField, limit: limitField, name_search: nameSearchField }),
  async run(context, input) {
    const page = await listTags(context.services.db, context.access.orgId, {
      skip: input.skip,
      limit: input.limit,
      nameSearch: input.name_search,
    });
    return { tags: page.tags.map(toTag), total_count: page.total, skip: input.skip };
  },
});

export const createTagTool = defineTool({
  name: 'create_tag',
  description:
    'Create a tag (names are unique, case-insensitive). Put it on documents with update_document and on prompts with update_prompt so the prompt runs on those documents.',
  access: 'read_write',
  writeEffect: 'adds',
  input: z.strictObject({
    name: tagNameField.describe('Tag name, e.g. "invoice"'),
    color: colorField.optional().describe('Hex color such as "#4f46e5"; default one picked from the name'),
    description: descriptionField.optional().describe('What documents the tag is for'),
  }),
  async run(context, input) {
    const tag = await createTag(context.services.db, context.access.orgId, input);
    return { message: 'Tag created', ...toTag(tag) };
  },
});

export const updateTagTool = defineTool({
  name: 'update_tag',
  description: "Change a tag's name, color or description; omitted fields stay as they are.",
  access: 'read_write',
  writeEffect: 'replaces',
  input: z.strictObject({
    tag_id: idField('The tag id'),
    name: tagNameField.optional().describe('New name'),
    color: colorField.optional().describe('New hex color'),
    description: descriptionField.optional().describe('New description'),
  }),
  async run(context, input) {
    const { db } = context.services;
    const { orgId } = context.access;
    const before = await getTag(db, orgId, input.tag_id);
    const tag = await updateTag(db, orgId, input.tag_id, {
      name: input.name,
      color: input.color,
      description: input.description,
    });
    const changed = tag.updatedAt.getTime() !== before.updatedAt.getTime();
    return { message: changed ? 'Tag updated' : 'No changes', ...toTag(tag) };
  },
});

export const deleteTagTool = defineTool({
  name: 'delete_tag',
  description: 'Delete a tag. Fails while documents or prompts use it: remove it from them first.',
  access: 'read_write',
  writeEffect: 'removes',
  input: z.strictObject({ tag_id: idField('The tag id') }),
  async run(context, input) {
    await deleteTag(context.services.db, context.access.orgId, input.tag_id);
    return { message: `Tag ${input.tag_id} deleted`, tag_id: input.tag_id };
  },
});
