import { INFER_LIMITS, inferSchema, type MergedField } from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import { abortedWhenClientLeaves } from '../http/sse.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, OrgParamsSchema } from './schemas.ts';

const errors = {
  400: ErrorBodySchema,
  402: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  429: ErrorBodySchema,
  502: ErrorBodySchema,
};

const ItemFieldSchema = z.object({
  name: z.string(),
  type: z.string().describe('string, number, integer, boolean or date (a string in the schema)'),
  present_in: z.number().describe('How many of the samples that have the list have this field in its items'),
  nullable: z.boolean(),
});
const FieldSchema = ItemFieldSchema.extend({
  type: z.string().describe('string, number, integer, boolean, date (a string in the schema) or list'),
  present_in: z.number().describe('How many of the samples have the field'),
  nullable: z.boolean().describe('True when only some samples have it'),
  item_fields: z.array(ItemFieldSchema).optional().describe('For a list: the fields of its items'),
});

const itemBody = (f: MergedField): z.infer<typeof ItemFieldSchema> => ({
  name: f.name,
  type: f.type,
  present_in: f.presentIn,
  nullable: f.nullable,
});
const fieldBody = (f: MergedField): z.infer<typeof FieldSchema> => ({
  ...itemBody(f),
  ...(f.itemFields ? { item_fields: f.itemFields.map(itemBody) } : {}),
});

/** Schema inference: one strict schema proposed from several sample documents (nothing is saved). */
export function schemaInferenceRoutes(app: ZodApp, { extraction }: RouteDeps): void {
  app.post(
    '/v0/orgs/:organization_id/schemas/infer',
    {
      schema: {
        summary: 'Propose one strict schema covering sample documents (a model call per document); nothing is saved',
        description:
          'Each sample’s fields are listed by the model, then merged: a field every sample has is required, one only some have may be null. Save the answer’s response_format with POST .../schemas.',
        tags: ['schemas'],
        params: OrgParamsSchema,
        body: z.strictObject({
          document_ids: z.array(z.string().min(1).max(64)).min(1).max(INFER_LIMITS.documents),
          name: z
            .string()
            .regex(/^[a-zA-Z0-9_-]{1,64}$/)
            .optional(),
          model: z.string().max(200).nullish(),
        }),
        response: {
          200: z.object({
            response_format: z.record(z.string(), z.unknown()),
            fields: z.array(FieldSchema),
            documents: z.number(),
          }),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { document_ids, name, model } = request.body;
      // A client that leaves stops the model calls it would not read.
      const signal = abortedWhenClientLeaves(reply);
      const inferred = await inferSchema(extraction, {
        orgId: orgOf(request).orgId,
        documentIds: document_ids,
        name,
        model,
        signal,
      });
      return { response_format: inferred.responseFormat, fields: inferred.fields.map(fieldBody), documents: inferred.documents };
    },
  );
}
