/**
 * The agent's WebSocket protocol (DESIGN.md, seed 003), as pure functions: what the panel sends,
 * and what it makes of what the server sends. Free of imports for the node tests: the requests
 * are api/chat's ChatRequest and ApproveRequest as far as the socket needs them, and the frames
 * are the caller's type.
 */

interface ChatRequest {
  messages: Array<{ content: string }>;
  mentions?: unknown[];
  model?: string;
  auto_approve?: boolean;
  auto_approved_tools?: string[];
  plan_mode?: boolean;
  thread_id?: string;
  truncate_thread_to_message_count?: number;
  max_steps?: number;
  strategy?: string;
}

interface ApproveRequest {
  turn_id: string;
  approvals: unknown[];
  input?: string;
}

/** What a message from the server is to the panel. */
export type SocketMessage<Frame> =
  /** A frame of a turn, as it would come on SSE, with the turn and the event id it carries. */
  | { kind: 'frame'; turnId: string; eventId: string; frame: Frame }
  /** The server could not take a message the panel sent (not valid for its schema, say). */
  | { kind: 'refused'; error: string }
  | { kind: 'pong' }
  | { kind: 'other' };

/** Reads a message; frames of the `agent_` kind come wrapped as `agent_update` and are unwrapped. */
export function readSocketMessage<Frame extends { type: string }>(data: unknown): SocketMessage<Frame> {
  let value: unknown;
  try {
    value = typeof data === 'string' ? JSON.parse(data) : null;
  } catch {
    return { kind: 'other' };
  }
  if (typeof value !== 'object' || value === null) return { kind: 'other' };
  const { type, turn_id, event_id, update_type, ...payload } = value as Record<string, unknown>;
  if (type === 'pong') return { kind: 'pong' };
  // A turn's frame has its event id; an error without one refuses a message (about a turn or not).
  if (typeof turn_id !== 'string' || typeof event_id !== 'number') {
    return type === 'error'
      ? { kind: 'refused', error: String(payload.error ?? 'The agent refused the message.') }
      : { kind: 'other' };
  }
  const frameType = type === 'agent_update' ? update_type : type;
  if (typeof frameType !== 'string') return { kind: 'other' };
  // turn_id stays in the frame: turn_started and the pauses carry it on SSE too.
  const frame = { ...payload, type: frameType, turn_id } as unknown as Frame;
  const eventId = String(event_id);
  return { kind: 'frame', turnId: turn_id, eventId, frame };
}

/** Starts a turn about the subject; the fields are the HTTP body's, under the socket's names. */
export function chatMessage(subject: { kind: string; id: string }, request: ChatRequest) {
  return {
    type: 'chat',
    subject: { kind: subject.kind, id: subject.id },
    message: request.messages.map((message) => message.content).join('\n\n'),
    agent_mode: true,
    agent_max_steps: request.max_steps,
    strategy: request.strategy,
    thread_id: request.thread_id,
    truncate_thread_to_message_count: request.truncate_thread_to_message_count,
    model: request.model,
    auto_approve: request.auto_approve,
    auto_approved_tools: request.auto_approved_tools,
    plan_mode: request.plan_mode,
    mentions: request.mentions,
  };
}

/** Continues a paused turn: an answer alone is the socket's agent_user_input, anything else an approve. */
export function resumeMessage(request: ApproveRequest) {
  if (request.approvals.length === 0 && request.input !== undefined) {
    return { type: 'agent_user_input', turn_id: request.turn_id, content: request.input };
  }
  return { type: 'approve', turn_id: request.turn_id, approvals: request.approvals, input: request.input };
}

/** Follows a turn again from after the last event seen (event ids count from 1 within a turn). */
export function followMessage(turnId: string, lastEventId: string | null) {
  return { type: 'follow', turn_id: turnId, after_event_id: lastEventId === null ? 0 : Number(lastEventId) };
}

export function stopMessage(turnId: string) {
  return { type: 'agent_control', action: 'stop', turn_id: turnId };
}
