import {
  approveChat,
  createThread,
  deleteThread,
  followChat,
  getThread,
  listThreads,
  renameThread,
  type Subject,
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
  ThreadBodySchema,
  ThreadSummarySchema,
  ToolsResponse,
  TurnBodySchema,
} from './agent-bodies.ts';
import { threadBody, threadSummaryBody } from './agent-threads.ts';
import { OrgParamsSchema } from './schemas.ts';

/** The document agent (DocRouter's /documents/{id}/chat): the agent routes with the document as subject. */

const DocParams = OrgParamsSchema.extend({ document_id: z.string().min(1).max(64) });
const documentOf = (params: { document_id: string }): Subject => ({ kind: 'document', id: params.document_id });

export function chatRoutes(app: ZodApp, { agent }: RouteDeps): void {
  const base = '/v0/orgs/:organization_id/documents/:document_id/chat';

  app.post(
    base,
    {
      schema: {
        summary: 'Send a message to the document agent (JSON, or text/event-stream with stream: true)',
        tags: ['chat'],
        params: DocParams,
        body: ChatBody,
        response: { 200: TurnBodySchema, ...errors },
      },
    },
    async (request, reply) =>
      respond(request, reply, request.body.stream, (sink) =>
        startChat(agent, orgOf(request), documentOf(request.params), chatRequestOf(request.body), sink),
      ),
  );

  app.post(
    `${base}/approve`,
    {
      schema: {
        summary: 'Continue a paused turn with approvals (optionally edited arguments) or the answer to its question',
        tags: ['chat'],
        params: DocParams,
        body: ApproveBody,
        response: { 200: TurnBodySchema, ...errors },
      },
    },
    async (request, reply) =>
      respond(request, reply, request.body.stream, (sink) =>
        approveChat(agent, orgOf(request), documentOf(request.params), approveRequestOf(request.body), sink),
      ),
  );

  app.post(
    `${base}/stop`,
    {
      schema: {
        summary:
          'Stop a turn: a running one now, in whichever process runs it (its in-flight model call is aborted; finished steps are kept), a paused one at once; an ended one says how it ended',
        tags: ['chat'],
        params: DocParams,
        body: StopBody,
        response: { 200: StopResponse, ...errors },
      },
    },
    async (request) => stopChat(agent, orgOf(request), request.body.turn_id),
  );

  app.get(
    `${base}/tools`,
    {
      schema: {
        summary: "The agent's tools by access",
        tags: ['chat'],
        params: DocParams,
        response: { 200: ToolsResponse, ...errors },
      },
    },
    async () => agent.engine.subjects.toolsOf('document').byAccess(),
  );

  // Lets the approval card check edited arguments the way running the tool would, before they are sent.
  app.post(
    `${base}/tools/:tool_name/check`,
    {
      schema: {
        summary: "Check arguments for one of the agent's tools without running it",
        tags: ['chat'],
        params: DocParams.extend({ tool_name: z.string().min(1).max(100) }),
        body: z.strictObject({ arguments: z.unknown() }),
        response: {
          200: z.object({ valid: z.boolean(), problems: z.array(z.object({ path: z.string(), message: z.string() })) }),
          ...errors,
        },
      },
    },
    async (request) => {
      const problems = agent.engine.subjects.toolsOf('document').checkInput(request.params.tool_name, request.body.arguments);
      return { valid: problems.length === 0, problems };
    },
  );

  app.get(
    `${base}/turns/:turn_id/stream`,
    {
      schema: {
        summary: 'Replay the frames of a turn after Last-Event-ID, then follow it live until it ends',
        tags: ['chat'],
        params: DocParams.extend({ turn_id: id }),
        headers: z.object({ 'last-event-id': z.coerce.number().int().min(0).optional() }),
        response: { ...errors },
      },
    },
    async (request, reply) => {
      const sse = lazySse(reply);
      const frames = followChat(
        agent,
        orgOf(request),
        documentOf(request.params),
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
    `${base}/threads`,
    {
      schema: {
        summary: 'Your conversations about this document, latest first',
        tags: ['chat'],
        params: DocParams,
        response: { 200: z.object({ threads: z.array(ThreadSummarySchema) }), ...errors },
      },
    },
    async (request) => ({
      threads: (await listThreads(agent, orgOf(request), documentOf(request.params))).map(threadSummaryBody),
    }),
  );

  app.post(
    `${base}/threads`,
    {
      schema: {
        summary: 'Start a conversation about this document',
        tags: ['chat'],
        params: DocParams,
        body: z
          .strictObject({ title: z.string().max(200).optional(), strategy: z.enum(['react', 'roa']).optional() })
          .default({}),
        response: { 200: z.object({ thread_id: z.string() }), ...errors },
      },
    },
    async (request) => {
      const thread = await createThread(agent, orgOf(request), documentOf(request.params), request.body);
      return { thread_id: thread.id };
    },
  );

  app.get(
    `${base}/threads/:thread_id`,
    {
      schema: {
        summary: 'A conversation with every message and its working state',
        tags: ['chat'],
        params: DocParams.extend({ thread_id: id }),
        response: { 200: ThreadBodySchema, ...errors },
      },
    },
    async (request) => threadBody(await getThread(agent, orgOf(request), documentOf(request.params), request.params.thread_id)),
  );

  app.patch(
    `${base}/threads/:thread_id`,
    {
      schema: {
        summary: 'Rename a conversation',
        tags: ['chat'],
        params: DocParams.extend({ thread_id: id }),
        body: RenameThreadBody,
        response: { 200: ThreadSummarySchema, ...errors },
      },
    },
    async (request) =>
      threadSummaryBody(
        await renameThread(agent, orgOf(request), documentOf(request.params), request.params.thread_id, request.body.title),
      ),
  );

  app.delete(
    `${base}/threads/:thread_id`,
    {
      schema: {
        summary: 'Delete a conversation',
        tags: ['chat'],
        params: DocParams.extend({ thread_id: id }),
        response: { 200: z.object({ message: z.string() }), ...errors },
      },
    },
    async (request) => {
      await deleteThread(agent, orgOf(request), documentOf(request.params), request.params.thread_id);
      return { message: 'Thread deleted' };
    },
  );
}
