import type { ChatFrame, ToolCallInfo } from '../api/chatStream';

import { failedStatus, type ToolStatus } from './toolStatus';

export type { ToolStatus };

/** A phase of a Reason–Act–Observe step shown as text: its reasoning, its observation, or a question it asked. */
export type StepPhase = 'reason' | 'observe' | 'question';

/** What the conversation shows, in order. Items with a `step` belong to that step of a Reason–Act–Observe turn. */
export type ChatItem =
  | {
      kind: 'user';
      key: string;
      text: string;
      /** Where the message is in the stored thread's messages, once known: what an edit truncates to. */
      messageIndex?: number;
    }
  | {
      kind: 'assistant';
      key: string;
      round: number | null;
      text: string;
      thinking: string;
      /** When the thinking streamed (ms since the epoch), for its timer; absent in a stored conversation. */
      thinkingStart?: number;
      thinkingEnd?: number;
    }
  | {
      kind: 'tool';
      key: string;
      callId: string;
      name: string;
      arguments: unknown;
      /** What a tool shows before approval (a note's rewrite: its diff and text), which approving applies. */
      proposal?: unknown;
      status: ToolStatus;
      /** The start of the result (or the whole error) once the call ran. */
      preview: string | null;
      /** The whole result, when the frame or the stored conversation has it. */
      result?: unknown;
      error: string | null;
      step?: number;
      /** The turn that ran it, when this page followed that turn: what an undo of its write names. */
      turnId?: string;
      /** Once its write was undone: what is current again, in words. */
      undone?: string;
    }
  /** A step began: its group shows before its first phase is in. */
  | { kind: 'step'; key: string; step: number }
  | {
      kind: 'phase';
      key: string;
      step: number;
      phase: StepPhase;
      text: string;
      /** A question's call (request_input) and the person's answer to it. */
      callId?: string;
      answer?: string;
    }
  | { kind: 'notice'; key: string; text: string }
  /** The turn failed (a provider error, a stream that could not be resumed): shown where it happened. */
  | { kind: 'error'; key: string; text: string };

export type ToolItem = Extract<ChatItem, { kind: 'tool' }>;

let counter = 0;
export const newKey = (prefix: string) => `${prefix}-${++counter}`;

/** What a card shows of a result: its first 200 characters. */
export function previewOf(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return (text ?? '').slice(0, 200);
}

export function updateTool(items: ChatItem[], callId: string, change: (item: ToolItem) => ToolItem): ChatItem[] {
  return items.map((item) => (item.kind === 'tool' && item.callId === callId ? change(item) : item));
}

/** Adds calls as cards with the status, or gives existing cards (a pending call now running) the status. */
export function withCalls(items: ChatItem[], calls: ToolCallInfo[], status: ToolStatus, step?: number): ChatItem[] {
  let next = items;
  const inStep = step === undefined ? {} : { step };
  for (const call of calls) {
    const proposal = call.proposal === undefined ? {} : { proposal: call.proposal };
    const known = next.some((item) => item.kind === 'tool' && item.callId === call.id);
    next = known
      ? updateTool(next, call.id, (item) => ({ ...item, status, arguments: call.arguments, ...proposal, ...inStep }))
      : [
          ...next,
          {
            kind: 'tool',
            key: newKey('tool'),
            callId: call.id,
            name: call.name,
            arguments: call.arguments,
            ...proposal,
            status,
            preview: null,
            error: null,
            ...inStep,
          },
        ];
  }
  return next;
}

/** Appends streamed text to the step's assistant message, or starts one after whatever came last. */
function withChunk(items: ChatItem[], round: number, field: 'text' | 'thinking', chunk: string): ChatItem[] {
  const last = items.at(-1);
  const now = Date.now();
  if (last?.kind === 'assistant' && last.round === round) {
    const timing =
      field === 'thinking'
        ? { thinkingStart: last.thinkingStart ?? now }
        : last.thinkingStart !== undefined && last.thinkingEnd === undefined
          ? { thinkingEnd: now }
          : {};
    return [...items.slice(0, -1), { ...last, [field]: last[field] + chunk, ...timing }];
  }
  return [
    ...items,
    {
      kind: 'assistant',
      key: newKey('assistant'),
      round,
      text: '',
      thinking: '',
      [field]: chunk,
      ...(field === 'thinking' ? { thinkingStart: now } : {}),
    },
  ];
}

/** The thinking of the streamed messages ends (its timer stops) when the step's thinking is done or the turn ends. */
export function endThinking(items: ChatItem[], round?: number): ChatItem[] {
  const now = Date.now();
  return items.map((item) =>
    item.kind === 'assistant' &&
    item.thinkingStart !== undefined &&
    item.thinkingEnd === undefined &&
    (round === undefined || item.round === round)
      ? { ...item, thinkingEnd: now }
      : item,
  );
}

/** A notice, once: a turn may say it stopped in two frames (the strategy's and the turn's). */
function withNotice(items: ChatItem[], text: string): ChatItem[] {
  const last = items.at(-1);
  return last?.kind === 'notice' && last.text === text ? items : [...items, { kind: 'notice', key: newKey('notice'), text }];
}

const stoppedText = (reason: 'user' | 'max_steps') =>
  reason === 'max_steps' ? 'The agent stopped after its maximum number of steps.' : 'Stopped.';

/** The step the turn on screen is at (calls paused for approval come without one), if it is a stepped turn. */
function stepOfTurn(items: ChatItem[]): number | undefined {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index] as ChatItem;
    if (item.kind === 'user') return undefined;
    if ('step' in item && item.step !== undefined) return item.step;
  }
  return undefined;
}

const withPhase = (items: ChatItem[], step: number, phase: StepPhase, text: string, callId?: string): ChatItem[] => [
  ...items,
  { kind: 'phase', key: newKey(phase), step, phase, text, ...(callId === undefined ? {} : { callId }) },
];

/** A question is shown as its phase, with its answer: its call gets no card of its own. */
const asksQuestion = (items: ChatItem[], callId: string) => items.some((item) => item.kind === 'phase' && item.callId === callId);

/** The conversation after one frame of a turn; frames that only matter to the turn's state leave it alone. */
export function applyFrame(items: ChatItem[], frame: ChatFrame): ChatItem[] {
  switch (frame.type) {
    case 'assistant_text_chunk':
      return withChunk(items, frame.round_index, 'text', frame.chunk);
    case 'thinking_chunk':
      return withChunk(items, frame.round_index, 'thinking', frame.chunk);
    case 'thinking_done':
      return endThinking(items, frame.round_index);
    case 'tool_calls':
      return withCalls(endThinking(items), frame.tool_calls, 'running');
    case 'pending_tool_calls':
      return withCalls(items, frame.tool_calls, 'pending', stepOfTurn(items));
    case 'tool_result':
      return updateTool(items, frame.call_id, (item) => {
        if (frame.success) {
          return { ...item, status: 'done', preview: frame.preview, result: frame.result, error: null };
        }
        const error = frame.error ?? frame.preview;
        return { ...item, status: failedStatus(frame.decision, error), error, preview: null };
      });
    case 'agent_turn_start':
      return [...items, { kind: 'step', key: newKey('step'), step: frame.step }];
    case 'agent_reason':
      return withPhase(items, frame.step, 'reason', frame.content);
    case 'tool_start':
      return asksQuestion(items, frame.call.id) ? items : withCalls(items, [frame.call], 'running', frame.step);
    case 'tool_complete':
      return updateTool(items, frame.call_id, (item) => ({
        ...item,
        status: 'done',
        preview: previewOf(frame.result),
        result: frame.result,
        error: null,
      }));
    case 'tool_error':
      return updateTool(items, frame.call_id, (item) => ({
        ...item,
        status: failedStatus(frame.decision, frame.error),
        error: frame.error,
        preview: null,
      }));
    case 'agent_request_input':
      return withPhase(items, frame.step, 'question', frame.question, frame.call_id);
    case 'agent_request_input_timeout':
      return withNotice(items, 'The question was not answered in time; the agent stopped waiting.');
    case 'agent_observe':
      return withPhase(items, frame.step, 'observe', frame.content);
    case 'response_complete':
      // A turn stopped before anything was observed has no answer.
      return frame.text === ''
        ? items
        : [...items, { kind: 'assistant', key: newKey('assistant'), round: null, text: frame.text, thinking: '' }];
    case 'stopped':
    case 'agent_stopped':
      return withNotice(items, stoppedText(frame.reason));
    case 'error':
      // Calls that were to run got no result: the turn ended without them.
      return [
        ...endThinking(items).map((item) =>
          item.kind === 'tool' && item.status === 'running' && item.preview === null && item.error === null
            ? { ...item, status: 'failed' as const }
            : item,
        ),
        { kind: 'error', key: newKey('error'), text: frame.error },
      ];
    default:
      return items;
  }
}

/**
 * The person's answer to the agent's question: in a stepped turn it goes under the question it
 * answers, otherwise it shows as their message.
 */
export function withAnswer(items: ChatItem[], answer: string): ChatItem[] {
  const at = items.findLastIndex((item) => item.kind === 'phase' && item.phase === 'question' && item.answer === undefined);
  if (at === -1 || items.slice(at).some((item) => item.kind === 'user')) {
    return [...items, { kind: 'user', key: newKey('user'), text: answer }];
  }
  return items.map((item, index) => (index === at ? { ...item, answer } : item) as ChatItem);
}

/** The calls that were waiting when the turn was left (a stop, an error): they will not run any more. */
export function abandonPending(items: ChatItem[]): ChatItem[] {
  return items.map((item) => (item.kind === 'tool' && item.status === 'pending' ? { ...item, status: 'rejected' } : item));
}
