import type { AgentEvent, StopOutcome } from '@docagent/agent';
import { isDomainError } from '@docagent/core';

/**
 * What the server sends on the agent's WebSocket. A turn's frame carries its `turn_id` and its
 * `event_id` (the SSE `id:`, counted from 1 within the turn). Frames named `agent_*` travel in
 * seed 003's envelope `{type: "agent_update", update_type, ...}`; all others under their own type.
 */

export type ServerMessage = { type: string } & Record<string, unknown>;

export function frameMessage(turnId: string, eventId: number, event: AgentEvent): ServerMessage {
  const { type, ...payload } = event;
  return type.startsWith('agent_')
    ? { type: 'agent_update', update_type: type, turn_id: turnId, event_id: eventId, ...payload }
    : { type, turn_id: turnId, event_id: eventId, ...payload };
}

export const controlResultMessage = (turnId: string, outcome: StopOutcome): ServerMessage => ({
  type: 'agent_control_result',
  turn_id: turnId,
  status: outcome.status,
  detail: outcome.detail,
});

export const pongMessage = (): ServerMessage => ({ type: 'pong' });

/** A message the server could not act on; `turn_id` when it was about a turn. */
export const errorMessage = (error: string, turnId?: string): ServerMessage =>
  turnId === undefined ? { type: 'error', error } : { type: 'error', turn_id: turnId, error };

/** What a failed service call tells the client: a domain error's own sentence; nothing internal. */
export function describeFailure(error: unknown): { message: string; internal: boolean } {
  if (isDomainError(error)) return { message: error.message, internal: false };
  return { message: 'Internal error; the server log has the details.', internal: true };
}
