import { getRunRecord, listRunRecords, type RunRecord } from '@docagent/agent';
import { type Db, subjectKey, subjectNames, userEmails } from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, iso, OrgParamsSchema } from './schemas.ts';

/** The audit of agent turns (seed 004's run capsules): tool calls, approvals, timings, usage. Admins only. */

const RunSchema = z.object({
  id: z.string(),
  turn_id: z.string(),
  user_id: z.string().nullable(),
  user_email: z.string().nullable().describe('Null when the run had no user, or their account is gone'),
  subject: z.object({
    kind: z.string(),
    id: z.string(),
    name: z.string().nullable().describe('Null once it is deleted, and for a kind of subject without names'),
  }),
  document_id: z.string().nullable().describe('The subject when it is a document'),
  model: z.string(),
  status: z.string(),
  tool_calls: z.array(z.unknown()),
  usage: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The names people read for the runs' users and subjects, one query each for a whole page. */
async function namesOf(db: Db, orgId: string, records: RunRecord[]) {
  const subjectOf = (r: RunRecord) => ({ kind: r.subjectKind, id: r.subjectId });
  const [emails, subjects] = await Promise.all([
    userEmails(
      db,
      records.flatMap((r) => (r.userId === null ? [] : [r.userId])),
    ),
    subjectNames(db, orgId, records.map(subjectOf)),
  ]);
  return (r: RunRecord) => ({
    userEmail: r.userId === null ? null : (emails.get(r.userId) ?? null),
    subjectName: subjects.get(subjectKey(subjectOf(r))) ?? null,
  });
}

type Names = Awaited<ReturnType<typeof namesOf>>;

const toBody = (r: RunRecord, names: Names): z.infer<typeof RunSchema> => ({
  id: r.id,
  turn_id: r.turnId,
  user_id: r.userId,
  user_email: names(r).userEmail,
  subject: { kind: r.subjectKind, id: r.subjectId, name: names(r).subjectName },
  document_id: r.subjectKind === 'document' ? r.subjectId : null,
  model: r.model,
  status: r.status,
  tool_calls: r.toolCalls,
  usage: r.usage,
  created_at: iso(r.createdAt),
  updated_at: iso(r.updatedAt),
});

const errors = { 400: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

export function agentRunRoutes(app: ZodApp, { db }: RouteDeps): void {
  app.get(
    '/v0/orgs/:organization_id/agent/runs',
    {
      schema: {
        summary: "The organization's agent runs, newest first (admins)",
        tags: ['chat'],
        params: OrgParamsSchema,
        querystring: z.object({
          skip: z.coerce.number().int().min(0).default(0),
          limit: z.coerce.number().int().min(1).max(100).default(20),
        }),
        response: { 200: z.object({ runs: z.array(RunSchema), total_count: z.number(), skip: z.number() }), ...errors },
      },
    },
    async (request) => {
      const access = orgOf(request);
      const page = await listRunRecords(db, access, request.query);
      const names = await namesOf(db, access.orgId, page.records);
      return { runs: page.records.map((r) => toBody(r, names)), total_count: page.total, skip: request.query.skip };
    },
  );

  app.get(
    '/v0/orgs/:organization_id/agent/runs/:run_id',
    {
      schema: {
        summary: 'One agent run with every tool call (admins)',
        tags: ['chat'],
        params: OrgParamsSchema.extend({ run_id: z.string().min(1).max(64) }),
        response: { 200: RunSchema, ...errors },
      },
    },
    async (request) => {
      const access = orgOf(request);
      const record = await getRunRecord(db, access, request.params.run_id);
      return toBody(record, await namesOf(db, access.orgId, [record]));
    },
  );
}
