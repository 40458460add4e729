import { approveChat, type FrameSink, startChat, stopChat, type TurnResult } from '@docagent/agent';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import { lazySse } from '../http/sse.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, iso, OrgParamsSchema } from './schemas.ts';

/** The document agent (DocRouter's /documents/{id}/chat): turns, approvals, stop, threads. */

const DocParams = OrgParamsSchema.extend({ document_id: z.string().min(1).max(64) });
const errors = {
  400: ErrorBodySchema,
  402: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  502: ErrorBodySchema,
  503: ErrorBodySchema,
};
const id = z.string().min(1).max(64);

const MentionSchema = z.strictObject({
  type: z.enum(['schema', 'prompt', 'tag', 'document']),
  id: z.string().regex(/^[\w:-]{1,64}$/, 'must be an id of letters, digits, - or _'),
});

const ChatBody = z.strictObject({
  messages: z
    .array(z.strictObject({ role: z.enum(['user', 'assistant']), content: z.string().max(100_000) }))
    .min(1)
    .max(500),
  mentions: z.array(MentionSchema).max(50).optional(),
  model: z.string().max(200).nullable().optional(),
  stream: z.boolean().optional(),
  auto_approve: z.boolean().optional(),
  auto_approved_tools: z.array(z.string().max(100)).max(100).optional(),
  thread_id: id.optional(),
  truncate_thread_to_message_count: z.number().int().min(0).optional(),
  max_steps: z.number().int().min(1).max(50).optional(),
});

const ApproveBody = z.strictObject({
  turn_id: id,
  approvals: z
    .array(z.strictObject({ call_id: z.string().min(1).max(200), approved: z.boolean(), arguments: z.unknown().optional() }))
    .max(100)
    .default([]),
  thread_id: id.optional(),
  input: z.string().max(20_000).optional(),
  stream: z.boolean().optional(),
});

const ToolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.unknown() });
/** The finished, paused or stopped turn, as DocRouter's non-stream response (plus stopped and usage). */
const TurnBodySchema = z.object({
  turn_id: z.string().optional(),
  text: z.string(),
  thinking: z.string(),
  tool_calls: z.array(ToolCallSchema).optional(),
  input_request: z.object({ call_id: z.string(), question: z.string() }).optional(),
  working_state: z.record(z.string(), z.unknown()),
  executed_rounds: z.array(z.object({ round_index: z.number(), tool_calls: z.array(ToolCallSchema) })),
  stopped: z.enum(['user', 'max_steps']).optional(),
  usage: z.object({
    input_tokens: z.number(),
    output_tokens: z.number(),
    cached_tokens: z.number(),
    reasoning_tokens: z.number(),
    cost_usd: z.number().nullable(),
  }),
});

/** Runs a turn as SSE when asked, else as one JSON body. */
async function respond(
  request: FastifyRequest,
  reply: FastifyReply,
  stream: boolean | undefined,
  run: (sink: FrameSink | undefined, signal: AbortSignal | undefined) => Promise<TurnResult>,
): Promise<TurnResult | undefined> {
  if (!stream) return run(undefined, undefined);
  const sse = lazySse(reply);
  try {
    await run((seq, event) => sse.send(seq, event), sse.signal);
  } catch (error) {
    // After the first frame the error already went out as an `error` frame.
    if (!sse.opened) throw error;
    request.log.warn({ err: error }, 'agent turn failed');
  } finally {
    sse.end();
  }
  return undefined;
}

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
    async (request, reply) => {
      const b = request.body;
      return respond(request, reply, b.stream, (sink, signal) =>
        startChat(
          agent,
          orgOf(request),
          request.params.document_id,
          {
            messages: b.messages,
            model: b.model,
            autoApprove: b.auto_approve,
            autoApprovedTools: b.auto_approved_tools,
            threadId: b.thread_id,
            truncateThreadToMessageCount: b.truncate_thread_to_message_count,
            maxSteps: b.max_steps,
            mentions: b.mentions,
          },
          sink,
          signal,
        ),
      );
    },
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
    async (request, reply) => {
      const b = request.body;
      return respond(request, reply, b.stream, (sink, signal) =>
        approveChat(
          agent,
          orgOf(request),
          request.params.document_id,
          {
            turnId: b.turn_id,
            approvals: b.approvals.map((a) => ({ callId: a.call_id, approved: a.approved, arguments: a.arguments })),
            input: b.input,
          },
          sink,
          signal,
        ),
      );
    },
  );

  app.post(
    `${base}/stop`,
    {
      schema: {
        summary:
          'Stop a turn: a running one at its next safe point (its in-flight model call is aborted; finished steps are kept), a paused one at once; an ended one says how it ended',
        tags: ['chat'],
        params: DocParams,
        body: z.strictObject({ turn_id: id }),
        response: {
          200: z.object({ status: z.enum(['stopping', 'stopped', 'finished', 'failed']), detail: z.string() }),
          ...errors,
        },
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
        response: { 200: z.object({ read_only: z.array(z.string()), read_write: z.array(z.string()) }), ...errors },
      },
    },
    async () => agent.engine.tools.byAccess(),
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
      const problems = agent.engine.tools.checkInput(request.params.tool_name, request.body.arguments);
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
      await agent.engine.turnOf(request.params.turn_id, orgOf(request), request.params.document_id);
      const sse = lazySse(reply);
      try {
        for await (const frame of agent.events.follow(
          request.params.turn_id,
          request.headers['last-event-id'] ?? 0,
          sse.signal,
        )) {
          sse.send(frame.seq, frame.event);
        }
      } finally {
        sse.end();
      }
    },
  );

  const ThreadSummary = z.object({ id: z.string(), title: z.string(), created_at: z.string(), updated_at: z.string() });

  app.get(
    `${base}/threads`,
    {
      schema: {
        summary: 'Your conversations about this document, latest first',
        tags: ['chat'],
        params: DocParams,
        response: { 200: z.object({ threads: z.array(ThreadSummary) }), ...errors },
      },
    },
    async (request) => ({
      threads: (await agent.threads.list(orgOf(request), request.params.document_id)).map((t) => ({
        id: t.id,
        title: t.title,
        created_at: iso(t.createdAt),
        updated_at: iso(t.updatedAt),
      })),
    }),
  );

  app.post(
    `${base}/threads`,
    {
      schema: {
        summary: 'Start a conversation about this document',
        tags: ['chat'],
        params: DocParams,
        body: z.strictObject({ title: z.string().max(200).optional() }).default({}),
        response: { 200: z.object({ thread_id: z.string() }), ...errors },
      },
    },
    async (request) => {
      const thread = await agent.threads.createFor(orgOf(request), request.params.document_id, request.body.title);
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
        response: {
          200: ThreadSummary.extend({ messages: z.array(z.unknown()), extraction: z.record(z.string(), z.unknown()) }),
          ...errors,
        },
      },
    },
    async (request) => {
      const t = await agent.threads.get(orgOf(request), request.params.document_id, request.params.thread_id);
      return {
        id: t.id,
        title: t.title,
        messages: t.messages,
        extraction: t.workingState as Record<string, unknown>,
        created_at: iso(t.createdAt),
        updated_at: iso(t.updatedAt),
      };
    },
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
      await agent.threads.delete(orgOf(request), request.params.document_id, request.params.thread_id);
      return { message: 'Thread deleted' };
    },
  );
}
