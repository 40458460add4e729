import type { FrameSink, TurnResult } from '@docagent/agent';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { lazySse } from '../http/sse.ts';
import { ErrorBodySchema, id } from './schemas.ts';

/** The agent's request and response bodies, shared by the document routes, the generic ones and the WebSocket. */

export const agentErrors = {
  400: ErrorBodySchema,
  402: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  502: ErrorBodySchema,
  503: ErrorBodySchema,
};
/** Re-exported for the agent's other bodies. */
export { id };

export const StrategySchema = z.enum(['react', 'roa']).describe('react: tool-calling steps; roa: reason, act, observe');

export const MentionSchema = z.strictObject({
  type: z.string().regex(/^[a-z_]{1,40}$/, 'must be a mention kind such as schema, prompt, tag or document'),
  id: z.string().regex(/^[\w:-]{1,64}$/, 'must be an id of letters, digits, - or _'),
});

export const ChatBody = z.strictObject({
  messages: z
    .array(z.strictObject({ role: z.enum(['user', 'assistant']), content: z.string().max(100_000) }))
    .min(1)
    .max(500),
  mentions: z.array(MentionSchema).max(50).optional(),
  model: z.string().max(200).nullable().optional(),
  stream: z.boolean().optional(),
  auto_approve: z.boolean().optional(),
  auto_approved_tools: z.array(z.string().max(100)).max(100).optional(),
  plan_mode: z
    .boolean()
    .optional()
    .describe(
      'Plan first: tools that change data are refused this turn; the agent answers with its plan for the person to approve',
    ),
  thread_id: id.optional(),
  truncate_thread_to_message_count: z.number().int().min(0).optional(),
  max_steps: z.number().int().min(1).max(50).optional(),
  strategy: StrategySchema.optional(),
});

export const ApproveBody = z.strictObject({
  turn_id: id,
  approvals: z
    .array(z.strictObject({ call_id: z.string().min(1).max(200), approved: z.boolean(), arguments: z.unknown().optional() }))
    .max(100)
    .default([]),
  thread_id: id.optional(),
  input: z.string().max(20_000).optional(),
  stream: z.boolean().optional(),
});

const ToolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.unknown(),
  proposal: z
    .unknown()
    .optional()
    .describe('What the call will do, shown before approval (a rewrite: its new text and diff); approving applies exactly this'),
});
/** The finished, paused or stopped turn, as DocRouter's non-stream response (plus stopped and usage). */
export const TurnBodySchema = z.object({
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

/**
 * Runs a turn as SSE when asked, else as one JSON body. A turn is not its connection: a client
 * that goes away stops getting frames, not the turn (GET .../turns/{turn_id}/stream follows it
 * again; POST .../stop stops it).
 */
export async function respond(
  request: FastifyRequest,
  reply: FastifyReply,
  stream: boolean | undefined,
  run: (sink: FrameSink | undefined) => Promise<TurnResult>,
): Promise<TurnResult | undefined> {
  if (!stream) return run(undefined);
  const sse = lazySse(reply);
  try {
    await run((seq, event) => sse.send(seq, event));
  } catch (error) {
    // After the first frame the error already went out as an `error` frame.
    if (!sse.opened) throw error;
    request.log.warn({ err: error }, 'agent turn failed');
  } finally {
    sse.end();
  }
  return undefined;
}

export const SubjectSchema = z.strictObject({
  kind: z.string().min(1).max(40).describe('document or dataset (project comes with its pack)'),
  id: z.string().min(1).max(64),
});

export const StopBody = z.strictObject({ turn_id: id });
export const StopResponse = z.object({ status: z.enum(['stopping', 'stopped', 'finished', 'failed']), detail: z.string() });
export const ToolsResponse = z.object({
  read_only: z.array(z.string()),
  read_write: z.array(z.string()),
  /** The writes whose applied calls can be undone (POST .../agent/turns/{turn_id}/undo). */
  undoable: z.array(z.string()),
});
export const ThreadSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
/** A thread's new title: blank ones are refused, not turned into "New conversation". */
export const RenameThreadBody = z.strictObject({ title: z.string().trim().min(1).max(200) });
export const ThreadBodySchema = ThreadSummarySchema.extend({
  messages: z.array(z.unknown()),
  working_state: z.record(z.string(), z.unknown()),
  /** The same working state under the name the document routes always used. */
  extraction: z.record(z.string(), z.unknown()),
  strategy: z.string(),
});

/** The engine's chat request from a chat body. */
export const chatRequestOf = (b: z.infer<typeof ChatBody>) => ({
  messages: b.messages,
  model: b.model,
  autoApprove: b.auto_approve,
  autoApprovedTools: b.auto_approved_tools,
  planMode: b.plan_mode,
  threadId: b.thread_id,
  truncateThreadToMessageCount: b.truncate_thread_to_message_count,
  maxSteps: b.max_steps,
  strategy: b.strategy,
  mentions: b.mentions,
});

/** The engine's approve request from an approve body. */
export const approveRequestOf = (b: z.infer<typeof ApproveBody>) => ({
  turnId: b.turn_id,
  approvals: b.approvals.map((a) => ({ callId: a.call_id, approved: a.approved, arguments: a.arguments })),
  input: b.input,
});
