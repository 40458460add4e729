import type { AgentEvent } from '../../engine/events.ts';
import type { DatasetChatBody } from './chat-body.ts';

/**
 * Seed 004's stream events, in order: `token` (the assistant's text as it comes), `tool_call` and
 * `tool_result` per call, `result` (the whole chat body), `done`; `error` ends a failed stream.
 */
export type DatasetChatEvent =
  | { event: 'token'; data: { text: string } }
  | { event: 'tool_call'; data: { call_id: string; name: string; input: unknown } }
  | {
      event: 'tool_result';
      data: { call_id: string; name: string; success: boolean; output?: unknown; error?: string };
    }
  | { event: 'result'; data: DatasetChatBody }
  | { event: 'done'; data: { run_id: string | null; thread_id: string; turn_id: string | null } }
  | { event: 'error'; data: { message: string } };

export type DatasetChatSink = (event: DatasetChatEvent) => void | Promise<void>;

const toolResult = (call_id: string, name: string, outcome: { result: unknown } | { error: string }): DatasetChatEvent => ({
  event: 'tool_result',
  data:
    'error' in outcome
      ? { call_id, name, success: false, error: outcome.error }
      : { call_id, name, success: true, output: outcome.result },
});

/**
 * The seed events an engine frame stands for (react's and roa's frames alike); frames with no
 * counterpart (usage, rounds, thinking, the turn's own bookkeeping) stand for none. `result` and
 * `done` are the chat's own, sent once the run behind the answer is known.
 */
export function seedEventsOf(frame: AgentEvent): DatasetChatEvent[] {
  switch (frame.type) {
    case 'assistant_text_chunk':
      return [{ event: 'token', data: { text: frame.chunk } }];
    // roa streams no text: its answer comes whole at the end.
    case 'response_complete':
      return frame.text === '' ? [] : [{ event: 'token', data: { text: frame.text } }];
    case 'tool_calls':
      return frame.tool_calls.map((c) => ({ event: 'tool_call', data: { call_id: c.id, name: c.name, input: c.arguments } }));
    case 'tool_start':
      return [{ event: 'tool_call', data: { call_id: frame.call.id, name: frame.call.name, input: frame.call.arguments } }];
    case 'tool_result':
      return [
        toolResult(frame.call_id, frame.name, frame.success ? { result: frame.result } : { error: frame.error ?? 'failed' }),
      ];
    case 'tool_complete':
      return [toolResult(frame.call_id, frame.name, { result: frame.result })];
    case 'tool_error':
      return [toolResult(frame.call_id, frame.name, { error: frame.error })];
    case 'error':
      return [{ event: 'error', data: { message: frame.error } }];
    default:
      return [];
  }
}
