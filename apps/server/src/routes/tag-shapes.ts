import type { TagRecord } from '@docagent/core';
import { z } from 'zod';
import { iso } from './schemas.ts';

/** Tags as DocRouter serves them. */
export const TagSchema = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  description: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const toTag = (t: TagRecord): z.infer<typeof TagSchema> => ({
  id: t.id,
  name: t.name,
  color: t.color,
  description: t.description,
  created_at: iso(t.createdAt),
  updated_at: iso(t.updatedAt),
});

const TagNameSchema = z.string().trim().min(1, 'a tag name must not be empty').max(64, 'a tag name has at most 64 characters');
const TagColorSchema = z
  .string()
  .regex(/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i, 'must be a CSS hex color, #rgb or #rrggbb, such as #4f46e5');
const TagDescriptionSchema = z.string().max(500, 'a tag description has at most 500 characters');

export const CreateTagBodySchema = z.strictObject({
  name: TagNameSchema,
  color: TagColorSchema.optional(),
  description: TagDescriptionSchema.optional(),
});

export const UpdateTagBodySchema = z.strictObject({
  name: TagNameSchema.optional(),
  color: TagColorSchema.optional(),
  description: TagDescriptionSchema.optional(),
});
