import { getDataRun, listDataRuns, runDataQuery } from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { DataRunSchema, DataRunSummarySchema, queryOf, RunBodySchema, toDataRun, toDataRunSummary } from './data-run-shapes.ts';
import { ErrorBodySchema, OrgParamsSchema } from './schemas.ts';

const RunParamsSchema = OrgParamsSchema.extend({ run_id: z.string().min(1).max(64) });
const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema };
const tags = ['data runs'];

/** Direct executions over datasets (no LLM) and the record of every execution, the agent's included. */
export function dataRunRoutes(app: ZodApp, { data }: RouteDeps): void {
  const { db } = data;

  app.post(
    '/v0/orgs/:organization_id/runs',
    {
      schema: {
        summary: 'Run SQL, a query plan or Python over a dataset, and record it',
        description:
          "The run is recorded and answered whatever its outcome: succeeded with the capped result, rejected when refused before running (SQL policy, a plan naming an unknown table or column), failed with the engine's message.",
        tags,
        params: OrgParamsSchema,
        body: RunBodySchema,
        response: { 200: DataRunSchema, ...errors },
      },
    },
    async (request) => {
      const { dataset_id, question } = request.body;
      return toDataRun(
        await runDataQuery(data, orgOf(request), { datasetId: dataset_id, question, query: queryOf(request.body) }),
      );
    },
  );

  app.get(
    '/v0/orgs/:organization_id/runs',
    {
      schema: {
        summary: 'List runs, newest first, without their rows',
        tags,
        params: OrgParamsSchema,
        querystring: z.object({
          skip: z.coerce.number().int().min(0).default(0),
          limit: z.coerce.number().int().min(1).max(100).default(10),
          dataset_id: z.string().min(1).max(64).optional().describe("Only this dataset's runs"),
        }),
        response: {
          200: z.object({ runs: z.array(DataRunSummarySchema), total_count: z.number(), skip: z.number() }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { skip, limit, dataset_id } = request.query;
      const page = await listDataRuns(db, orgOf(request).orgId, { skip, limit, datasetId: dataset_id });
      return { runs: page.runs.map(toDataRunSummary), total_count: page.total, skip };
    },
  );

  app.get(
    '/v0/orgs/:organization_id/runs/:run_id',
    {
      schema: { summary: 'One run with its result', tags, params: RunParamsSchema, response: { 200: DataRunSchema, ...errors } },
    },
    async (request) => toDataRun(await getDataRun(db, orgOf(request).orgId, request.params.run_id)),
  );

  app.get(
    '/v0/orgs/:organization_id/runs/:run_id/status',
    {
      schema: {
        summary: "A run's status",
        tags,
        params: RunParamsSchema,
        response: { 200: z.object({ run_id: z.string(), status: DataRunSchema.shape.status }), ...errors },
      },
    },
    async (request) => {
      const run = await getDataRun(db, orgOf(request).orgId, request.params.run_id);
      return { run_id: run.id, status: run.status };
    },
  );
}
