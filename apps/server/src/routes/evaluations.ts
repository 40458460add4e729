import {
  compareEvaluations,
  createEvaluation,
  type EvaluationRecord,
  type EvaluationReport,
  evaluationReport,
  type FieldAccuracy,
  listEvaluations,
} from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { BatchCountsSchema } from './prompt-batches.ts';
import { ErrorBodySchema, id, iso, isoOrNull, OrgParamsSchema } from './schemas.ts';

const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const tags = ['evaluations'];
const PromptParams = OrgParamsSchema.extend({ prompt_id: id });

const EvaluationSchema = z.object({
  evaluation_id: z.string().describe('Also a batch id: cancel, retry and its documents go through the batch routes'),
  prompt_id: z.string(),
  prompt_revid: z.string(),
  prompt_version: z.number(),
  status: z.enum(['running', 'finished', 'cancelled']),
  counts: BatchCountsSchema,
  document_ids: z.array(z.string()).describe('The evaluation set: documents with a verified result of the prompt'),
  created_by: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

const FieldAccuracySchema = z.object({ path: z.string(), correct: z.number(), total: z.number(), accuracy: z.number() });

const AccuracySchema = z
  .object({
    overall: z.number().nullable().describe('Share of all leaves that agree; null while no document is answered'),
    correct: z.number(),
    total: z.number(),
    documents: z.number().describe('How many documents were scored: those answered so far'),
    complete: z.boolean().describe('False while the evaluation runs: the accuracy covers the documents answered so far'),
    fields: z.array(FieldAccuracySchema).describe('Per field, the path with array indexes removed (line_items[].amount)'),
  })
  .describe('Computed over the documents answered so far (failed and cancelled ones are not scored)');

const DifferenceSchema = z.object({
  document_id: z.string(),
  document_name: z.string(),
  path: z.string().describe('Where in the verified result (with array indexes)'),
  field: z.string().describe('The field (array indexes removed)'),
  expected: z.unknown(),
  actual: z.unknown(),
});

const ReportSchema = EvaluationSchema.extend({ accuracy: AccuracySchema, differences: z.array(DifferenceSchema) });

const toEvaluation = (e: EvaluationRecord): z.infer<typeof EvaluationSchema> => ({
  evaluation_id: e.id,
  prompt_id: e.promptId,
  prompt_revid: e.promptRevid,
  prompt_version: e.promptVersion,
  status: e.status,
  counts: e.counts,
  document_ids: Array.isArray(e.selection.document_ids) ? (e.selection.document_ids as string[]) : [],
  created_by: e.createdBy,
  created_at: iso(e.createdAt),
  finished_at: isoOrNull(e.finishedAt),
});

const toReport = (r: EvaluationReport): z.infer<typeof ReportSchema> => ({
  ...toEvaluation(r.evaluation),
  accuracy: {
    overall: r.score.overall.accuracy,
    correct: r.score.overall.correct,
    total: r.score.overall.total,
    documents: r.score.documents,
    complete: r.score.complete,
    fields: r.score.fields,
  },
  differences: r.differences.map((d) => ({
    document_id: d.documentId,
    document_name: d.documentName,
    path: d.path,
    field: d.field,
    expected: d.expected,
    actual: d.actual,
  })),
});

const SideSchema = z.object({ correct: z.number(), total: z.number(), accuracy: z.number() }).nullable();
const side = (f: FieldAccuracy | null) => (f ? { correct: f.correct, total: f.total, accuracy: f.accuracy } : null);

/** Evaluations: a prompt revision scored against the prompt's verified results, and two of them side by side. */
export function evaluationRoutes(app: ZodApp, { db, batches }: RouteDeps): void {
  app.post(
    '/v0/orgs/:organization_id/prompts/:prompt_id/evaluations',
    {
      schema: {
        summary: 'Evaluate a revision of the prompt (default: its latest) on its verified documents, a job each',
        description:
          "The prompt's evaluation set is its documents with a result a person verified (any revision); the truth is that result (the latest verified). The documents' results are not changed. 409 when no document is verified.",
        tags,
        params: PromptParams,
        body: z.strictObject({ prompt_revid: id.optional().describe('A revision of this prompt; default: its latest') }),
        response: { 200: EvaluationSchema, ...errors },
      },
    },
    async (request) =>
      toEvaluation(
        await createEvaluation(batches, orgOf(request), request.params.prompt_id, { promptRevid: request.body.prompt_revid }),
      ),
  );

  app.get(
    '/v0/orgs/:organization_id/prompts/:prompt_id/evaluations',
    {
      schema: {
        summary: "The prompt's evaluations, newest first",
        tags,
        params: PromptParams,
        response: { 200: z.object({ evaluations: z.array(EvaluationSchema) }), ...errors },
      },
    },
    async (request) => ({
      evaluations: (await listEvaluations(db, orgOf(request).orgId, request.params.prompt_id)).map(toEvaluation),
    }),
  );

  app.get(
    '/v0/orgs/:organization_id/prompts/:prompt_id/evaluations/compare',
    {
      schema: {
        summary: 'Two evaluations of the prompt side by side: accuracy per field in each, and the fields that changed',
        tags,
        params: PromptParams,
        querystring: z.strictObject({ a: id, b: id }),
        response: {
          200: z.object({
            a: ReportSchema.omit({ differences: true }),
            b: ReportSchema.omit({ differences: true }),
            overall: z.object({ a: z.number().nullable(), b: z.number().nullable(), changed: z.boolean() }),
            fields: z.array(z.object({ path: z.string(), a: SideSchema, b: SideSchema, changed: z.boolean() })),
            changed_fields: z.array(z.string()).describe('The fields whose accuracy differs'),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const c = await compareEvaluations(db, orgOf(request).orgId, request.params.prompt_id, request.query.a, request.query.b);
      const summary = (r: EvaluationReport) => {
        const { differences: _d, ...rest } = toReport(r);
        return rest;
      };
      return {
        a: summary(c.a),
        b: summary(c.b),
        overall: {
          a: c.a.score.overall.accuracy,
          b: c.b.score.overall.accuracy,
          changed: c.a.score.overall.accuracy !== c.b.score.overall.accuracy,
        },
        fields: c.fields.map((f) => ({ path: f.path, a: side(f.a), b: side(f.b), changed: f.changed })),
        changed_fields: c.fields.filter((f) => f.changed).map((f) => f.path),
      };
    },
  );

  app.get(
    '/v0/orgs/:organization_id/evaluations/:evaluation_id',
    {
      schema: {
        summary: 'An evaluation: progress, accuracy per field and overall, and the documents and fields that differ',
        tags,
        params: OrgParamsSchema.extend({ evaluation_id: id }),
        response: { 200: ReportSchema, ...errors },
      },
    },
    async (request) => toReport(await evaluationReport(db, orgOf(request).orgId, request.params.evaluation_id)),
  );
}
