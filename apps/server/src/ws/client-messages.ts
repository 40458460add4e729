import { isDomainError } from '@docagent/core';
import { z } from 'zod';
import { checkStorable } from '../http/input-hygiene.ts';
import { ApproveBody, ChatBody, id, SubjectSchema } from '../routes/agent-bodies.ts';

/**
 * What a client may send on the agent's WebSocket (DESIGN.md, seed 003), checked by the same
 * schemas as the HTTP bodies: a field means the same on both transports.
 */

const ChatMessage = z.strictObject({
  type: z.literal('chat'),
  subject: SubjectSchema,
  /** The person's message; the history is the thread's (thread_id), else this message alone. */
  message: ChatBody.shape.messages.element.shape.content.min(1),
  /** Seed 003's switch, accepted and ignored: every turn here is an agent turn, `strategy` picks the loop. */
  agent_mode: z.boolean().optional(),
  agent_max_steps: ChatBody.shape.max_steps,
  strategy: ChatBody.shape.strategy,
  thread_id: ChatBody.shape.thread_id,
  /** Edit and resend: the thread's first messages to keep before this one. */
  truncate_thread_to_message_count: ChatBody.shape.truncate_thread_to_message_count,
  model: ChatBody.shape.model,
  auto_approve: ChatBody.shape.auto_approve,
  auto_approved_tools: ChatBody.shape.auto_approved_tools,
  plan_mode: ChatBody.shape.plan_mode,
  mentions: ChatBody.shape.mentions,
});

const ControlMessage = z.strictObject({
  type: z.literal('agent_control'),
  action: z.literal('stop'),
  /** Default: the latest turn this socket started or continued. */
  turn_id: id.optional(),
});

const UserInputMessage = z.strictObject({
  type: z.literal('agent_user_input'),
  content: ApproveBody.shape.input.unwrap(),
  /** Default: the latest turn that paused on this socket. */
  turn_id: id.optional(),
});

const ApproveMessage = ApproveBody.omit({ stream: true, thread_id: true }).extend({ type: z.literal('approve') });

const FollowMessage = z.strictObject({
  type: z.literal('follow'),
  turn_id: id,
  /** The last event id the client has of this turn; 0 for all of them. */
  after_event_id: z.number().int().min(0),
});

const PingMessage = z.strictObject({ type: z.literal('ping') });

export const ClientMessage = z.discriminatedUnion('type', [
  ChatMessage,
  ControlMessage,
  UserInputMessage,
  ApproveMessage,
  FollowMessage,
  PingMessage,
]);
export type ClientMessage = z.infer<typeof ClientMessage>;
export type ChatMessage = z.infer<typeof ChatMessage>;
export type ApproveMessage = z.infer<typeof ApproveMessage>;

export type ReadMessage = { ok: true; message: ClientMessage } | { ok: false; error: string; turnId?: string };

const describeIssues = (error: z.ZodError) =>
  error.issues
    .map((issue) => {
      const path = issue.path.join('.');
      if (issue.code === 'unrecognized_keys') return `${path ? `${path}: ` : ''}unknown field(s) ${issue.keys.join(', ')}`;
      return `${path || 'the message'}: ${issue.message}`;
    })
    .join('; ');

/** Parses and checks one message; what is wrong with it is said in a sentence the client can show. */
export function readClientMessage(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): ReadMessage {
  if (isBinary) return { ok: false, error: 'Send messages as JSON text, not binary.' };
  const text = (Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'The message is not JSON; send one JSON object such as {"type":"ping"}.' };
  }
  const turnId = id.safeParse((value as { turn_id?: unknown } | null)?.turn_id).data;
  try {
    checkStorable(value, 'message');
  } catch (error) {
    if (isDomainError(error)) return { ok: false, error: error.message, turnId };
    throw error;
  }
  const parsed = ClientMessage.safeParse(value);
  if (!parsed.success) return { ok: false, error: `Invalid message: ${describeIssues(parsed.error)}.`, turnId };
  return { ok: true, message: parsed.data };
}
