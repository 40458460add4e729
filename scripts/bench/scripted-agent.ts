import type { RecordedRequest } from '@docagent/fake-llm';

/**
 * Reading the agent's requests as the fake provider receives them (OpenAI Responses or
 * Anthropic Messages), so a benchmark can script the model's side of a conversation.
 */

// biome-ignore lint/suspicious/noExplicitAny: provider request items, read field by field
type Item = any;

const itemsOf = (request: RecordedRequest): Item[] =>
  (request.protocol === 'anthropic-messages' ? request.body?.messages : request.body?.input) ?? [];

/** The agent's requests carry its tools; the default prompt's and extraction's do not. */
export function isAgentRequest(request: RecordedRequest): boolean {
  const tools: Item[] = Array.isArray(request.body?.tools) ? request.body.tools : [];
  return tools.some((t) => (t.name ?? t.function?.name) === 'get_ocr_text');
}

/** Whether an item is the person's message (Anthropic sends tool results as user messages too). */
function isPersonMessage(item: Item): boolean {
  if (item.role !== 'user') return false;
  if (typeof item.content === 'string') return true;
  return !(item.content as Item[]).some((part) => part.type === 'tool_result');
}

function textOf(item: Item): string {
  if (typeof item.content === 'string') return item.content;
  return (item.content as Item[]).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}

/** The person's latest message. */
export function lastUserText(request: RecordedRequest): string {
  const message = itemsOf(request).findLast(isPersonMessage);
  return message ? textOf(message) : '';
}

/** How many tool results this turn has so far: the step the model is asked for, from 0. */
export function stepOf(request: RecordedRequest): number {
  const items = itemsOf(request);
  const since = items.slice(items.findLastIndex(isPersonMessage) + 1);
  if (request.protocol === 'anthropic-messages') {
    return since.flatMap((m: Item) => (Array.isArray(m.content) ? m.content : [])).filter((p: Item) => p.type === 'tool_result')
      .length;
  }
  return since.filter((item: Item) => item.type === 'function_call_output').length;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The outputs of every tool call in the request's history, oldest first (JSON parsed where it is JSON). */
export function toolOutputsOf(request: RecordedRequest): unknown[] {
  const items = itemsOf(request);
  if (request.protocol === 'anthropic-messages') {
    return items
      .flatMap((m: Item) => (Array.isArray(m.content) ? m.content : []))
      .filter((p: Item) => p.type === 'tool_result')
      .map((p: Item) => parsed(typeof p.content === 'string' ? p.content : textOf(p)));
  }
  return items.filter((item: Item) => item.type === 'function_call_output').map((item: Item) => parsed(item.output ?? 'null'));
}
