import { INFER_LIMITS, inferSchema } from '@docagent/core';
import { z } from 'zod';
import { defineTool } from '../../tools/tool.ts';

export const inferSchemaTool = defineTool({
  name: 'infer_schema',
  description: `Propose one strict extraction schema that covers several sample documents of a kind (1 to ${INFER_LIMITS.documents}): each sample's fields are listed by a model call, then merged; a field only some samples have may be null. It creates nothing: show the person the schema, and create it with create_schema once they agree. It costs a model call per document, so the person is asked first. Example: {"document_ids": ["…", "…", "…"], "name": "invoice"}`,
  input: z.strictObject({
    document_ids: z.array(z.string().trim().min(1).max(64)).min(1).max(INFER_LIMITS.documents),
    name: z
      .string()
      .regex(/^[a-zA-Z0-9_-]{1,64}$/, 'letters, digits, _ and - only')
      .optional()
      .describe('The name in the response_format envelope (default "inferred")'),
  }),
  access: 'read_only',
  asksFirst: 'infer_schema makes a model call for each sample document',
  timeLimitMs: 600_000,
  async run(context, input) {
    const inferred = await inferSchema(context.services.extraction, {
      orgId: context.access.orgId,
      documentIds: input.document_ids,
      name: input.name,
      model: context.modelId,
      signal: context.abortSignal,
      onUsage: (usage, costUsd) => context.addUsage(usage, costUsd),
    });
    return {
      response_format: inferred.responseFormat,
      documents: inferred.documents,
      fields: inferred.fields.map((f) => ({
        name: f.name,
        type: f.type,
        present_in: f.presentIn,
        nullable: f.nullable,
        ...(f.itemFields ? { item_fields: f.itemFields.map((i) => ({ name: i.name, type: i.type, nullable: i.nullable })) } : {}),
      })),
    };
  },
});
