import { refineAutoCreate } from '@docagent/agent';
import { AUTO_CREATE_STATUSES, acceptAutoCreate, getAutoCreateLog, rejectAutoCreate, startAutoCreate } from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { DocumentSchema, toDocument } from './document-shapes.ts';
import { ErrorBodySchema, isoOrNull, OrgParamsSchema } from './schemas.ts';

/**
 * Auto-create after upload (seed 000 section 4), next to the document's chat routes: starting a
 * run, and the review of its proposal: accept, reject, refine in a chat thread, and the headless
 * run's log as a read-only thread.
 */

const DocParams = OrgParamsSchema.extend({ document_id: z.string().min(1).max(64) });
const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema };
const NoBody = z.strictObject({}).default({});

const LogBodySchema = z.object({
  turn_id: z.string().nullable().describe('The headless turn; its audit is the agent run record of this id'),
  title: z.string(),
  read_only: z.literal(true),
  status: z.enum(AUTO_CREATE_STATUSES).nullable(),
  error: z.string().nullable(),
  model: z.string().nullable(),
  messages: z.array(z.unknown()).describe('The conversation as AI SDK model messages, as in a thread'),
  extraction: z.record(z.string(), z.unknown()).describe('The working state the run ended with, as in a thread'),
  done_at: z.string().nullable(),
});

export function autoCreateRoutes(app: ZodApp, { db, agent, autoCreate }: RouteDeps): void {
  const base = '/v0/orgs/:organization_id/documents/:document_id/auto-create';

  app.post(
    `${base}/start`,
    {
      schema: {
        summary:
          'Run auto-create on this document now: one uploaded without it, one whose run failed or was rejected, or one that waited for a model',
        tags: ['auto-create'],
        params: DocParams,
        body: NoBody,
        response: { 200: DocumentSchema, ...errors },
      },
    },
    async (request) => toDocument(await startAutoCreate(autoCreate, orgOf(request).orgId, request.params.document_id)),
  );

  app.post(
    `${base}/accept`,
    {
      schema: {
        summary: 'Accept the auto-create proposal: its prompt becomes a normal prompt',
        tags: ['auto-create'],
        params: DocParams,
        body: NoBody,
        response: { 200: DocumentSchema, ...errors },
      },
    },
    async (request) => toDocument(await acceptAutoCreate(db, orgOf(request).orgId, request.params.document_id)),
  );

  app.post(
    `${base}/reject`,
    {
      schema: {
        summary: 'Reject the auto-create proposal: the schema, prompt and result it created are deleted',
        tags: ['auto-create'],
        params: DocParams,
        body: NoBody,
        response: { 200: DocumentSchema, ...errors },
      },
    },
    async (request) => toDocument(await rejectAutoCreate(db, orgOf(request).orgId, request.params.document_id)),
  );

  app.post(
    `${base}/refine`,
    {
      schema: {
        summary: 'Refine the proposal in chat: a new thread whose working state is the proposal',
        tags: ['auto-create'],
        params: DocParams,
        body: NoBody,
        response: { 200: z.object({ thread_id: z.string() }), ...errors },
      },
    },
    async (request) => ({ thread_id: await refineAutoCreate(agent.threads, orgOf(request), request.params.document_id) }),
  );

  app.get(
    `${base}/log`,
    {
      schema: {
        summary: "The headless run's conversation, as a read-only thread",
        tags: ['auto-create'],
        params: DocParams,
        response: { 200: LogBodySchema, ...errors },
      },
    },
    async (request) => {
      const { status, error, log, doneAt } = await getAutoCreateLog(db, orgOf(request).orgId, request.params.document_id);
      return {
        turn_id: log?.turnId ?? null,
        title: 'Auto-create',
        read_only: true as const,
        status,
        error,
        model: log?.model ?? null,
        messages: log?.messages ?? [],
        extraction: log?.workingState ?? {},
        done_at: isoOrNull(doneAt),
      };
    },
  );
}
