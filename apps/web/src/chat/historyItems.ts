import type { StoredMessage } from '../api/chat';
import type { CallDecision } from '../api/chatStream';
import { type ChatItem, newKey, previewOf, type ToolItem, updateTool, withCalls } from './chatItems';
import { failedStatus } from './toolStatus';

/** A stored conversation (the thread's AI SDK messages) as the items a live one shows. */

function partsOf(content: StoredMessage['content']): Array<{ type: string; [key: string]: unknown }> {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** A stored tool output: an error text, or a JSON value that is only `{error}`, is a failure. */
function outcomeOf(
  output: unknown,
  decision: CallDecision | undefined,
): Pick<ToolItem, 'status' | 'preview' | 'result' | 'error'> {
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
  return { status: 'done', preview: previewOf(value), result: value, error: null };
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
