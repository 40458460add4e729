/** A tool call as clients see it. */
export interface ToolCallInfo {
  id: string;
  name: string;
  arguments: unknown;
  /** For a tool that shows what it will do before approval (a rewrite): that, which approving applies. */
  proposal?: unknown;
}

export interface TurnUsage {
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  reasoning_tokens: number;
  cost_usd: number | null;
}

/**
 * How a tool call was decided, on every tool_result: allowed (read-only, or allowed ahead), approved
 * or rejected by the person, denied (never allowed for this turn), or stopped before it ran.
 */
export type CallDecision = 'allowed' | 'approved' | 'rejected' | 'denied' | 'stopped';

/** The body of a finished, paused or stopped turn (DocRouter's non-stream response, plus ours). */
export interface TurnResult {
  turn_id?: string;
  text: string;
  thinking: string;
  tool_calls?: ToolCallInfo[];
  input_request?: { call_id: string; question: string };
  working_state: Record<string, unknown>;
  executed_rounds: Array<{ round_index: number; tool_calls: ToolCallInfo[] }>;
  stopped?: 'user' | 'max_steps';
  usage: TurnUsage;
}

/** What the engine reports while a turn runs; transports turn these into SSE or WebSocket frames. */
export type AgentEvent =
  | { type: 'turn_started'; turn_id: string; thread_id: string | null; model: string; max_steps: number; strategy: string }
  | { type: 'thinking_chunk'; chunk: string; round_index: number }
  | { type: 'assistant_text_chunk'; chunk: string; round_index: number }
  | { type: 'tool_calls'; round_index: number; tool_calls: ToolCallInfo[] }
  | {
      type: 'tool_result';
      round_index: number;
      call_id: string;
      name: string;
      success: boolean;
      decision: CallDecision;
      result?: unknown;
      error?: string;
      preview: string;
    }
  | { type: 'round_executed'; round_index: number; thinking: string; tool_calls: ToolCallInfo[] }
  | { type: 'pending_tool_calls'; turn_id: string; tool_calls: ToolCallInfo[] }
  | { type: 'input_request'; turn_id: string; call_id: string; question: string }
  | { type: 'thinking_done'; thinking: string; round_index: number }
  | { type: 'assistant_text_done'; full_text: string; round_index: number }
  | ({ type: 'usage' } & TurnUsage)
  | { type: 'stopped'; reason: 'user' | 'max_steps' }
  | { type: 'done'; result: TurnResult }
  | { type: 'error'; error: string }
  | RoaEvent;

/**
 * The frames of a Reason–Act–Observe turn (seed 003), besides turn_started, pending_tool_calls,
 * usage, done and error. `step` counts from 1. On the WebSocket the `agent_*` ones travel in
 * seed 003's `agent_update` envelope.
 */
export type RoaEvent =
  | { type: 'agent_start'; max_steps: number }
  | { type: 'agent_turn_start'; step: number }
  | { type: 'agent_reason'; content: string; step: number }
  | { type: 'tool_start'; call: ToolCallInfo; step: number }
  | { type: 'tool_complete'; call_id: string; name: string; result: unknown; decision: CallDecision; step: number }
  | { type: 'tool_error'; call_id: string; name: string; error: string; decision: CallDecision; step: number }
  | { type: 'agent_request_input'; turn_id: string; call_id: string; question: string; step: number }
  | { type: 'agent_request_input_timeout'; question: string }
  | { type: 'agent_observe'; content: string; step: number }
  | { type: 'agent_stopped'; reason: 'user' | 'max_steps' }
  | { type: 'agent_completion'; steps: number }
  | { type: 'response_complete'; text: string };

export type EventSink = (event: AgentEvent) => void | Promise<void>;

/** The replay log's side of a run's output: the frames that close a step go in the step's commit. */
/** A frame as the turn's log keeps it: numbered from 1 within the turn (the SSE `id:`). */
export interface StoredFrame {
  seq: number;
  event: AgentEvent;
}

export interface StepFrames {
  /**
   * Numbers `closing` after the frames sent so far; answers them with the frames not written yet,
   * for the step's commit to write, and what delivers `closing` once that commit is done.
   */
  stage(closing: AgentEvent[]): Promise<{ write: StoredFrame[]; deliver: () => Promise<void> }>;
}

/** Where a run sends its frames: a transport, and, when the turn's frames are kept for replay, its log. */
export interface TurnOutput {
  emit: EventSink;
  frames?: StepFrames;
}

/** A bare sink (a headless run, a test) keeps no frames. */
export const outputOf = (output: EventSink | TurnOutput): TurnOutput =>
  typeof output === 'function' ? { emit: output } : output;
