import type { StoredMessage } from '../api/chat';
import type { CallDecision, ChatFrame, ToolCallInfo } from '../api/chatStream';

import { failedStatus, type ToolStatus } from './toolStatus';

export type { ToolStatus };

/** What the conversation shows, in order. */
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
      status: ToolStatus;
      /** The start of the result (or the whole error) once the call ran. */
      preview: string | null;
      error: string | null;
    }
  | { kind: 'notice'; key: string; text: string }
  /** The turn failed (a provider error, a stream that could not be resumed): shown where it happened. */
  | { kind: 'error'; key: string; text: string };

export type ToolItem = Extract<ChatItem, { kind: 'tool' }>;

let counter = 0;
export const newKey = (prefix: string) => `${prefix}-${++counter}`;

function updateTool(items: ChatItem[], callId: string, change: (item: ToolItem) => ToolItem): ChatItem[] {
  return items.map((item) => (item.kind === 'tool' && item.callId === callId ? change(item) : item));
}

/** Adds calls as cards with the status, or gives existing cards (a pending call now running) the status. */
function withCalls(items: ChatItem[], calls: ToolCallInfo[], status: ToolStatus): ChatItem[] {
  let next = items;
  for (const call of calls) {
    const known = next.some((item) => item.kind === 'tool' && item.callId === call.id);
    next = known
      ? updateTool(next, call.id, (item) => ({ ...item, status, arguments: call.arguments }))
      : [
          ...next,
          {
            kind: 'tool',
            key: newKey('tool'),
            callId: call.id,
            name: call.name,
            arguments: call.arguments,
            status,
            preview: null,
            error: null,
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
      return withCalls(items, frame.tool_calls, 'pending');
    case 'tool_result':
      return updateTool(items, frame.call_id, (item) => {
        if (frame.success) {
          return { ...item, status: 'done', preview: frame.preview, error: null };
        }
        const error = frame.error ?? frame.preview;
        return { ...item, status: failedStatus(frame.decision, error), error, preview: null };
      });
    case 'stopped':
      return [
        ...items,
        {
          kind: 'notice',
          key: newKey('notice'),
          text: frame.reason === 'max_steps' ? 'The agent stopped after its maximum number of steps.' : 'Stopped.',
        },
      ];
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

/** The calls that were waiting when the turn was left (a stop, an error): they will not run any more. */
export function abandonPending(items: ChatItem[]): ChatItem[] {
  return items.map((item) => (item.kind === 'tool' && item.status === 'pending' ? { ...item, status: 'rejected' } : item));
}

function previewOf(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return (text ?? '').slice(0, 200);
}

function partsOf(content: StoredMessage['content']): Array<{ type: string; [key: string]: unknown }> {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** A stored tool output: an error text, or a JSON value that is only `{error}`, is a failure. */
function outcomeOf(output: unknown, decision: CallDecision | undefined): Pick<ToolItem, 'status' | 'preview' | 'error'> {
  const { type, value } = (output ?? {}) as { type?: string; value?: unknown };
  if (type === 'error-text' || type === 'error-json') {
    const error = typeof value === 'string' ? value : JSON.stringify(value);
    return { status: failedStatus(decision, error), preview: null, error };
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    const error = (value as { error?: unknown }).error;
    if (keys.length === 1 && typeof error === 'string') {
      return { status: failedStatus(decision, error), preview: null, error };
    }
  }
  return { status: 'done', preview: previewOf(value), error: null };
}

/** A stored conversation (AI SDK ModelMessages) as the items the live one shows. */
export function itemsOfHistory(messages: StoredMessage[]): ChatItem[] {
  let items: ChatItem[] = [];
  for (const [index, message] of messages.entries()) {
    const parts = partsOf(message.content);
    if (message.role === 'user') {
      const text = userTextOf(message);
      if (text !== '') items.push({ kind: 'user', key: newKey('user'), text, messageIndex: index });
    } else if (message.role === 'assistant') {
      let current: Extract<ChatItem, { kind: 'assistant' }> | null = null;
      for (const part of parts) {
        if ((part.type === 'text' || part.type === 'reasoning') && typeof part.text === 'string') {
          if (!current) {
            current = { kind: 'assistant', key: newKey('assistant'), round: null, text: '', thinking: '' };
            items.push(current);
          }
          if (part.type === 'text') current.text += part.text;
          else current.thinking += part.text;
        } else if (part.type === 'tool-call') {
          items = withCalls(items, [{ id: String(part.toolCallId), name: String(part.toolName), arguments: part.input }], 'done');
          current = null;
        }
      }
    } else if (message.role === 'tool') {
      for (const part of parts) {
        if (part.type === 'tool-result') {
          const stored = part.providerOptions as { docagent?: { decision?: CallDecision } } | undefined;
          items = updateTool(items, String(part.toolCallId), (item) => ({
            ...item,
            ...outcomeOf(part.output, stored?.docagent?.decision),
          }));
        }
      }
    }
  }
  // Empty assistant messages (a step that only called tools) show nothing.
  return items.filter((item) => item.kind !== 'assistant' || item.text !== '' || item.thinking !== '');
}

/** What a stored user message says (its text parts); a message without text is not shown. */
function userTextOf(message: StoredMessage): string {
  return partsOf(message.content)
    .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** The index in the thread's messages of each user message shown (one with text). */
function userMessagesOf(messages: StoredMessage[]): number[] {
  const indexes: number[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role === 'user' && userTextOf(message) !== '') indexes.push(index);
  }
  return indexes;
}

/** Gives the user messages on screen their index in the stored thread (the nth shown is the nth stored). */
export function withMessageIndexes(items: ChatItem[], messages: StoredMessage[]): ChatItem[] {
  const indexes = userMessagesOf(messages);
  let next = 0;
  return items.map((item) => {
    if (item.kind !== 'user') return item;
    const messageIndex = indexes[next++];
    return messageIndex === undefined ? item : { ...item, messageIndex };
  });
}
