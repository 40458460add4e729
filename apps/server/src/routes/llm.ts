import {
  changeLlmProvider,
  changeLlmSettings,
  DEFAULT_PROMPT_REVID,
  deleteExtractionResult,
  describeLlmSettings,
  type ExtractionResult,
  fieldsToReview,
  getExtractionResult,
  type LlmOverview,
  listExtractionResults,
  runExtraction,
  updateExtractionResult,
} from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, iso, OrgParamsSchema } from './schemas.ts';

/** Extraction (DocRouter's /llm/run and /llm/result), the organization's models and their settings. */

const CitationSchema = z.object({
  path: z.string().describe('The leaf\'s JSON path in updated_llm_result: "total", "line_items[2].amount", "parties[0]"'),
  page: z.number().int().nullable().describe('1-based; null when not found'),
  boxes: z
    .array(z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }))
    .describe("One box per line of the matched words: PDF points from the page's top-left corner, pixels for images"),
  text: z.string().describe('The matched text as it is on the page'),
  match: z.enum(['exact', 'normalized', 'fuzzy', 'not_found']),
  confidence: z.number().min(0).max(1).describe('From the match, and no more than probability when there is one'),
  probability: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe("How sure the model was of the value, from its tokens' log-probabilities, when the provider reported them"),
});

const ResultBodySchema = z.object({
  prompt_revid: z.string(),
  prompt_id: z.string(),
  prompt_version: z.number(),
  prompt_display_name: z.string(),
  document_id: z.string(),
  model: z.string(),
  llm_result: z.record(z.string(), z.unknown()),
  updated_llm_result: z.record(z.string(), z.unknown()),
  is_edited: z.boolean(),
  is_verified: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  citations: z
    .array(CitationSchema)
    .describe(
      'Where each string and number of updated_llm_result is in the document (booleans, nulls and empty strings have none)',
    ),
  fields_to_review: z
    .array(z.string())
    .describe('Paths whose confidence is under the review threshold (DOCAGENT_REVIEW_CONFIDENCE, 0.7)'),
});

const toBody = (r: ExtractionResult, reviewBelow: number): z.infer<typeof ResultBodySchema> => ({
  prompt_revid: r.promptRevid,
  prompt_id: r.promptId,
  prompt_version: r.promptVersion,
  prompt_display_name: r.promptName,
  document_id: r.documentId,
  model: r.model,
  llm_result: r.llmResult,
  updated_llm_result: r.updatedLlmResult,
  is_edited: r.isEdited,
  is_verified: r.isVerified,
  created_at: iso(r.createdAt),
  updated_at: iso(r.updatedAt),
  citations: r.citations,
  fields_to_review: fieldsToReview(r.citations, reviewBelow),
});

const errors = {
  400: ErrorBodySchema,
  402: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  502: ErrorBodySchema,
  503: ErrorBodySchema,
};
const DocParams = OrgParamsSchema.extend({ document_id: z.string().min(1).max(64) });
const promptRevid = z
  .string()
  .min(1)
  .max(64)
  .default(DEFAULT_PROMPT_REVID)
  .describe('A prompt revision id; "default" (the default) is the organization\'s default prompt');
const flag = z.stringbool().default(false);

const ProviderSchema = z.object({
  name: z.string(),
  label: z.string(),
  configured: z.boolean(),
  key_source: z.enum(['organization', 'environment', 'none']),
  api_key_preview: z
    .string()
    .nullable()
    .describe("The start and end of the organization's stored key; null for members who are not admins"),
  base_url: z.string().nullable(),
  api_key_env: z.string().nullable(),
  base_url_env: z.string(),
});

const SettingsBodySchema = z.object({
  default_model: z.string().nullable().describe('Chosen default; null: the server default'),
  enabled_models: z.array(z.string()).nullable().describe('null: every available model'),
  chat_models: z.array(z.string()).nullable().describe('null: every enabled model'),
  monthly_limit_usd: z.number().nullable(),
  auto_create_default: z.boolean().describe('Whether uploads ask for auto-create when they do not say'),
  auto_create_model: z.string().nullable().describe("The auto-create agent's model; null: the default model"),
  spent_this_month_usd: z.number(),
  effective_default_model: z.string().nullable(),
  effective_enabled_models: z.array(z.string()),
  available_models: z.array(z.string()),
  providers: z.array(ProviderSchema),
  can_store_keys: z.boolean(),
});

const settingsBody = (o: LlmOverview): z.infer<typeof SettingsBodySchema> => ({
  default_model: o.defaultModel,
  enabled_models: o.enabledModels,
  chat_models: o.chatModels,
  monthly_limit_usd: o.monthlyLimitUsd,
  auto_create_default: o.autoCreateDefault,
  auto_create_model: o.autoCreateModel,
  spent_this_month_usd: o.spentThisMonthUsd,
  effective_default_model: o.defaultModelResolved ?? null,
  effective_enabled_models: o.enabledModelsResolved,
  available_models: o.availableModels,
  providers: o.providers.map((p) => ({
    name: p.name,
    label: p.label,
    configured: p.configured,
    key_source: p.keySource,
    api_key_preview: p.apiKeyPreview ?? null,
    base_url: p.baseUrl ?? null,
    api_key_env: p.apiKeyEnv ?? null,
    base_url_env: p.baseUrlEnv,
  })),
  can_store_keys: o.canStoreKeys,
});

export function llmRoutes(app: ZodApp, { config, extraction, waitingExtractions }: RouteDeps): void {
  const body = (r: ExtractionResult) => toBody(r, config.reviewConfidence);
  const { db, llm } = extraction;

  app.post(
    '/v0/orgs/:organization_id/llm/run/:document_id',
    {
      schema: {
        summary: "Run a prompt on a document's text and store the result (a stored one is returned unless force)",
        tags: ['llm'],
        params: DocParams,
        querystring: z.object({ prompt_revid: promptRevid, force: flag }),
        response: {
          200: z.object({ status: z.literal('success'), result_id: z.string(), reused: z.boolean(), result: ResultBodySchema }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { prompt_revid, force } = request.query;
      const run = await runExtraction(extraction, orgOf(request).orgId, request.params.document_id, prompt_revid, { force });
      return { status: 'success' as const, result_id: run.result.id, reused: run.reused, result: body(run.result) };
    },
  );

  app.get(
    '/v0/orgs/:organization_id/llm/result/:document_id',
    {
      schema: {
        summary: "A prompt revision's result for a document (fallback: an earlier version's when this one has none)",
        tags: ['llm'],
        params: DocParams,
        querystring: z.object({ prompt_revid: promptRevid, fallback: flag }),
        response: { 200: ResultBodySchema, ...errors },
      },
    },
    async (request) => {
      const { prompt_revid, fallback } = request.query;
      return body(await getExtractionResult(db, orgOf(request).orgId, request.params.document_id, prompt_revid, { fallback }));
    },
  );

  app.put(
    '/v0/orgs/:organization_id/llm/result/:document_id',
    {
      schema: {
        summary: "Correct or verify a result; the values must satisfy the prompt's schema",
        tags: ['llm'],
        params: DocParams,
        querystring: z.object({ prompt_revid: promptRevid }),
        body: z.strictObject({ updated_llm_result: z.unknown(), is_verified: z.boolean().optional() }),
        response: { 200: ResultBodySchema, ...errors },
      },
    },
    async (request) =>
      body(
        await updateExtractionResult(db, orgOf(request).orgId, request.params.document_id, request.query.prompt_revid, {
          updatedLlmResult: request.body.updated_llm_result,
          isVerified: request.body.is_verified,
        }),
      ),
  );

  app.delete(
    '/v0/orgs/:organization_id/llm/result/:document_id',
    {
      schema: {
        summary: "Delete a prompt revision's result for a document",
        tags: ['llm'],
        params: DocParams,
        querystring: z.object({ prompt_revid: promptRevid }),
        response: { 200: z.object({ message: z.string() }), ...errors },
      },
    },
    async (request) => {
      await deleteExtractionResult(db, orgOf(request).orgId, request.params.document_id, request.query.prompt_revid);
      return { message: 'LLM result deleted successfully' };
    },
  );

  // Not in DocRouter: the document page lists every prompt's result at once.
  app.get(
    '/v0/orgs/:organization_id/llm/results/:document_id',
    {
      schema: {
        summary: "The newest result of each prompt for a document, the default prompt's first",
        tags: ['llm'],
        params: DocParams,
        response: { 200: z.object({ results: z.array(ResultBodySchema) }), ...errors },
      },
    },
    async (request) => ({
      results: (await listExtractionResults(db, orgOf(request).orgId, request.params.document_id)).map(body),
    }),
  );

  app.get(
    '/v0/orgs/:organization_id/llm/models',
    {
      schema: {
        summary: 'The models this organization may use (chat_only: those offered in the agent chat)',
        tags: ['llm'],
        params: OrgParamsSchema,
        querystring: z.object({ chat_only: flag }),
        response: {
          200: z.object({
            models: z.array(z.string()),
            default_model: z.string().nullable(),
            configure_hint: z.string().nullable().describe('What to set up when no model is available'),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const offer = await llm.offer(orgOf(request).orgId, { chatOnly: request.query.chat_only });
      return { models: offer.models, default_model: offer.defaultModel ?? null, configure_hint: offer.configureHint ?? null };
    },
  );

  app.get(
    '/v0/orgs/:organization_id/llm/settings',
    {
      schema: {
        summary: "The organization's providers, models, choices and this month's spend",
        tags: ['llm'],
        params: OrgParamsSchema,
        response: { 200: SettingsBodySchema, ...errors },
      },
    },
    async (request) => settingsBody(await describeLlmSettings(llm, orgOf(request))),
  );

  app.put(
    '/v0/orgs/:organization_id/llm/settings',
    {
      schema: {
        summary: "Change the organization's model choices and monthly limit (admins)",
        tags: ['llm'],
        params: OrgParamsSchema,
        body: z.strictObject({
          default_model: z.string().nullable().optional(),
          enabled_models: z.array(z.string()).nullable().optional(),
          chat_models: z.array(z.string()).nullable().optional(),
          monthly_limit_usd: z.number().nullable().optional(),
          auto_create_default: z.boolean().optional(),
          auto_create_model: z.string().max(200).nullable().optional(),
        }),
        response: { 200: SettingsBodySchema, ...errors },
      },
    },
    async (request) => {
      const b = request.body;
      return settingsBody(
        await changeLlmSettings(llm, orgOf(request), {
          defaultModel: b.default_model,
          enabledModels: b.enabled_models,
          chatModels: b.chat_models,
          monthlyLimitUsd: b.monthly_limit_usd,
          autoCreateDefault: b.auto_create_default,
          autoCreateModel: b.auto_create_model,
        }),
      );
    },
  );

  app.put(
    '/v0/orgs/:organization_id/llm/providers/:provider',
    {
      schema: {
        summary: "Set the organization's own key, endpoint or model names for a provider (admins)",
        tags: ['llm'],
        params: OrgParamsSchema.extend({ provider: z.string().min(1).max(40) }),
        body: z.strictObject({
          api_key: z.string().nullable().optional().describe('null removes the organization key'),
          base_url: z.string().nullable().optional(),
          models: z.array(z.string().max(200)).optional(),
        }),
        response: { 200: SettingsBodySchema, ...errors },
      },
    },
    async (request) => {
      const { api_key, base_url, models } = request.body;
      return settingsBody(
        await changeLlmProvider(llm, waitingExtractions, orgOf(request), request.params.provider, {
          apiKey: api_key,
          baseUrl: base_url,
          models,
        }),
      );
    },
  );
}
