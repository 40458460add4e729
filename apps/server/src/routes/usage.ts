import { monthlyUsage, monthOf, type UsageTotals } from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, OrgParamsSchema } from './schemas.ts';

const TotalsSchema = z.object({
  calls: z.number(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cached_tokens: z.number().describe('Input tokens read from the provider’s prompt cache (part of input_tokens)'),
  reasoning_tokens: z.number().describe('Output tokens spent on reasoning (part of output_tokens)'),
  cost_usd: z.number().describe('Estimated from the price table, over the calls whose model has a price'),
  unpriced_calls: z.number().describe('Calls of models with no price: not in cost_usd'),
});

const toTotals = (t: UsageTotals): z.infer<typeof TotalsSchema> => ({
  calls: t.calls,
  input_tokens: t.inputTokens,
  output_tokens: t.outputTokens,
  cached_tokens: t.cachedTokens,
  reasoning_tokens: t.reasoningTokens,
  cost_usd: t.costUsd,
  unpriced_calls: t.unpricedCalls,
});

export function usageRoutes(app: ZodApp, { db }: RouteDeps): void {
  app.get(
    '/v0/orgs/:organization_id/usage',
    {
      schema: {
        summary: "The organization's LLM spend and tokens in one month (UTC), in total, per model and per operation (admins)",
        tags: ['llm'],
        params: OrgParamsSchema,
        querystring: z.object({
          month: z
            .string()
            .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month as YYYY-MM')
            .optional()
            .describe('YYYY-MM; this month when left out'),
        }),
        response: {
          200: z.object({
            month: z.string(),
            totals: TotalsSchema,
            by_model: z.array(TotalsSchema.extend({ model: z.string() })),
            by_operation: z.array(TotalsSchema.extend({ operation: z.string() })),
          }),
          400: ErrorBodySchema,
          403: ErrorBodySchema,
          404: ErrorBodySchema,
        },
      },
    },
    async (request) => {
      const usage = await monthlyUsage(db, orgOf(request), request.query.month ?? monthOf(new Date()));
      return {
        month: usage.month,
        totals: toTotals(usage.totals),
        by_model: usage.byModel.map(({ model, ...totals }) => ({ model, ...toTotals(totals) })),
        by_operation: usage.byOperation.map(({ operation, ...totals }) => ({ operation, ...toTotals(totals) })),
      };
    },
  );
}
