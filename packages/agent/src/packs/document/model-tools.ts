import { z } from 'zod';
import { defineTool } from '../../tools/tool.ts';

export const listLlmModels = defineTool({
  name: 'list_llm_models',
  description:
    'List the model ids the organization may use for prompts (the model field), and the default one used when a prompt names none.',
  access: 'read_only',
  input: z.strictObject({}),
  async run(context) {
    const offer = await context.services.extraction.llm.offer(context.access.orgId);
    return {
      models: offer.models,
      default_model: offer.defaultModel ?? null,
      ...(offer.configureHint ? { note: offer.configureHint } : {}),
    };
  },
});
