import type { RecordedRequest } from '@docagent/fake-llm';

/** Readers of the OpenAI Responses requests the fake provider recorded: what the agent sent the model. */

// biome-ignore lint/suspicious/noExplicitAny: Responses API input items, read field by field
type InputItem = any;

export const inputOf = (request: RecordedRequest): InputItem[] => (Array.isArray(request.body?.input) ? request.body.input : []);

function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: InputItem) => (typeof part?.text === 'string' ? part.text : '')).join('');
}

/** The text of the person's last message. */
export function lastUserText(request: RecordedRequest): string {
  const message = inputOf(request).findLast((item) => item.role === 'user');
  return message ? textOfContent(message.content) : '';
}

/** The system message: the instructions, or the system and developer items. */
export function systemText(request: RecordedRequest): string {
  const items = inputOf(request).filter((item) => item.role === 'system' || item.role === 'developer');
  return [String(request.body?.instructions ?? ''), ...items.map((item) => textOfContent(item.content))].join('\n');
}

/** The outputs of the tool calls of this turn (those after the person's last message), as sent. */
export function outputsOfTurn(request: RecordedRequest): string[] {
  const input = inputOf(request);
  const lastUser = input.findLastIndex((item) => item.role === 'user');
  return input
    .slice(lastUser + 1)
    .filter((item) => item.type === 'function_call_output')
    .map((item) => String(item.output));
}

/** The first value of a string field (an id a tool returned) among tool outputs, or ''. */
export const idIn = (outputs: string[], field: string) =>
  outputs.map((output) => new RegExp(`"${field}":\\s*"([^"]+)"`).exec(output)?.[1]).find(Boolean) ?? '';

/** The JSON schema a structured-output request asks for, if any. */
export function requestedSchema(request: RecordedRequest): { properties?: Record<string, unknown> } | undefined {
  return request.body?.text?.format?.schema;
}
