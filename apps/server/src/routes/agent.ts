import {
  approveChat,
  createThread,
  deleteThread,
  followChat,
  getThread,
  listThreads,
  renameThread,
  startChat,
  stopChat,
} from '@docagent/agent';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import { lazySse } from '../http/sse.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import {
  ApproveBody,
  approveRequestOf,
  ChatBody,
  chatRequestOf,
  agentErrors as errors,
  id,
  RenameThreadBody,
  respond,
  StopBody,
  StopResponse,
  StrategySchema,
  SubjectSchema,
  ThreadBodySchema,
  ThreadSummarySchema,
  ToolsResponse,
  TurnBodySchema,
} from './agent-bodies.ts';
import { threadBody, threadSummaryBody } from './agent-threads.ts';
import { OrgParamsSchema } from './schemas.ts';

/** The agent on any subject (DESIGN "HTTP API"): the document routes are these with the document as subject. */

const SubjectQuery = z.strictObject({ subject_kind: z.string().min(1).max(40), subject_id: id });
const subjectOf = (q: z.infer<typeof SubjectQuery>) => ({ kind: q.subject_kind, id: q.subject_id });

export function agentRoutes(app: ZodApp, { agent }: RouteDeps): void {
  const base = '/v0/orgs/:organization_id/agent';

  app.post(
    `${base}/chat`,
    {
      schema: {
        summary: 'Send a message to the agent about a subject (JSON, or text/event-stream with stream: true)',
        tags: ['agent'],
        params: OrgParamsSchema,
        body: ChatBody.extend({ subject: SubjectSchema }),
        response: { 200: TurnBodySchema, ...errors },
      },
    },
    async (request, reply) =>
      respond(request, reply, request.body.stream, (sink) =>
        startChat(agent, orgOf(request), request.body.subject, chatRequestOf(request.body), sink),
      ),
  );

  app.post(
    `${base}/chat/approve`,
    {
      schema: {
        summary: 'Continue a paused turn with approvals (optionally edited arguments) or the answer to its question',
        tags: ['agent'],
        params: OrgParamsSchema,
        body: ApproveBody,
        response: { 200: TurnBodySchema, ...errors },
      },
    },
    async (request, reply) =>
      respond(request, reply, request.body.stream, (sink) =>
        approveChat(agent, orgOf(request), undefined, approveRequestOf(request.body), sink),
      ),
  );

  app.post(
    `${base}/chat/stop`,
    {
      schema: {
        summary: 'Stop a turn, in whichever server process it runs',
        tags: ['agent'],
        params: OrgParamsSchema,
        body: StopBody,
        response: { 200: StopResponse, ...errors },
      },
    },
    async (request) => stopChat(agent, orgOf(request), request.body.turn_id),
  );

  app.get(
    `${base}/turns/:turn_id/stream`,
    {
      schema: {
        summary: 'Replay the frames of a turn after Last-Event-ID, then follow it live until it ends',
        tags: ['agent'],
        params: OrgParamsSchema.extend({ turn_id: id }),
        headers: z.object({ 'last-event-id': z.coerce.number().int().min(0).optional() }),
        response: { ...errors },
      },
    },
    async (request, reply) => {
      const sse = lazySse(reply);
      const frames = followChat(
        agent,
        orgOf(request),
        undefined,
        request.params.turn_id,
        request.headers['last-event-id'] ?? 0,
        sse.signal,
      );
      try {
        for await (const frame of frames) sse.send(frame.seq, frame.event);
      } finally {
        sse.end();
      }
    },
  );

  app.get(
    `${base}/tools`,
    {
      schema: {
        summary: 'The tools the agent has in conversations about a kind of subject, by access',
        tags: ['agent'],
        params: OrgParamsSchema,
        querystring: z.strictObject({ subject_kind: z.string().min(1).max(40) }),
        response: { 200: ToolsResponse, ...errors },
      },
    },
    async (request) => agent.engine.subjects.toolsOf(request.query.subject_kind).byAccess(),
  );

  app.get(
    `${base}/threads`,
    {
      schema: {
        summary: 'Your conversations about a subject, latest first',
        tags: ['agent'],
        params: OrgParamsSchema,
        querystring: SubjectQuery,
        response: { 200: z.object({ threads: z.array(ThreadSummarySchema) }), ...errors },
      },
    },
    async (request) => ({
      threads: (await listThreads(agent, orgOf(request), subjectOf(request.query))).map(threadSummaryBody),
    }),
  );

  app.post(
    `${base}/threads`,
    {
      schema: {
        summary: 'Start a conversation about a subject',
        tags: ['agent'],
        params: OrgParamsSchema,
        body: z.strictObject({
          subject: SubjectSchema,
          title: z.string().max(200).optional(),
          strategy: StrategySchema.optional(),
        }),
        response: { 200: z.object({ thread_id: z.string() }), ...errors },
      },
    },
    async (request) => {
      const { subject, ...options } = request.body;
      const thread = await createThread(agent, orgOf(request), subject, options);
      return { thread_id: thread.id };
    },
  );

  app.get(
    `${base}/threads/:thread_id`,
    {
      schema: {
        summary: 'A conversation with every message and its working state',
        tags: ['agent'],
        params: OrgParamsSchema.extend({ thread_id: id }),
        response: { 200: ThreadBodySchema, ...errors },
      },
    },
    async (request) => threadBody(await getThread(agent, orgOf(request), undefined, request.params.thread_id)),
  );

  app.patch(
    `${base}/threads/:thread_id`,
    {
      schema: {
        summary: 'Rename a conversation',
        tags: ['agent'],
        params: OrgParamsSchema.extend({ thread_id: id }),
        body: RenameThreadBody,
        response: { 200: ThreadSummarySchema, ...errors },
      },
    },
    async (request) =>
      threadSummaryBody(await renameThread(agent, orgOf(request), undefined, request.params.thread_id, request.body.title)),
  );

  app.delete(
    `${base}/threads/:thread_id`,
    {
      schema: {
        summary: 'Delete a conversation',
        tags: ['agent'],
        params: OrgParamsSchema.extend({ thread_id: id }),
        response: { 200: z.object({ message: z.string() }), ...errors },
      },
    },
    async (request) => {
      await deleteThread(agent, orgOf(request), undefined, request.params.thread_id);
      return { message: 'Thread deleted' };
    },
  );
}
