/**
 * Anthropic Messages API (POST /v1/messages), as parsed by @ai-sdk/anthropic@4 (`anthropicResponseSchema`,
 * `anthropicChunkSchema`).
 */
import { randomBytes } from 'node:crypto';
import { type ContentKind, type FakeUsage, type RenderInput, randomId, type SseEvent } from './script.ts';

/** Anthropic's `input_tokens` excludes cache reads; FakeUsage.inputTokens is the total, so the cached part is taken out. */
function usageJson(usage: FakeUsage) {
  const cached = usage.cachedTokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.inputTokens - cached),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    output_tokens: usage.outputTokens,
    ...(usage.reasoningTokens !== undefined ? { output_tokens_details: { thinking_tokens: usage.reasoningTokens } } : {}),
    service_tier: 'standard',
  };
}

function stopReason(input: RenderInput): string {
  return input.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
}

function signatureOf(input: RenderInput): string {
  return input.reply.reasoning?.signature ?? randomBytes(48).toString('base64');
}

/** Parsed tool input; a malformed argument string is passed through as a JSON string (the real API never returns one). */
function parsedInput(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

export function messagesJson(input: RenderInput): unknown {
  const content: unknown[] = [];
  if (input.reply.reasoning)
    content.push({ type: 'thinking', thinking: input.reply.reasoning.text, signature: signatureOf(input) });
  if (input.text !== undefined) content.push({ type: 'text', text: input.text });
  for (const call of input.toolCalls)
    content.push({ type: 'tool_use', id: call.id, name: call.name, input: parsedInput(call.arguments) });
  return {
    id: randomId('msg_'),
    type: 'message',
    role: 'assistant',
    model: input.model,
    content,
    stop_reason: stopReason(input),
    stop_sequence: null,
    usage: usageJson(input.usage),
  };
}

export function messagesEvents(input: RenderInput): SseEvent[] {
  const events: SseEvent[] = [];
  const push = (type: string, fields: Record<string, unknown> = {}, content?: { kind: ContentKind; text: string }) => {
    events.push({ event: type, data: { type, ...fields }, ...(content ? { content } : {}) });
  };
  const usage = usageJson(input.usage);
  push('message_start', {
    message: {
      id: randomId('msg_'),
      type: 'message',
      role: 'assistant',
      model: input.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: 1,
        service_tier: usage.service_tier,
      },
    },
  });
  let index = 0;
  if (input.reply.reasoning) {
    push('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    push('ping');
    for (const thinking of input.pieces('reasoning', input.reply.reasoning.text)) {
      push('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } }, { kind: 'reasoning', text: thinking });
    }
    push('content_block_delta', { index, delta: { type: 'signature_delta', signature: signatureOf(input) } });
    push('content_block_stop', { index });
    index++;
  }
  if (input.text !== undefined) {
    push('content_block_start', { index, content_block: { type: 'text', text: '' } });
    if (index === 0) push('ping');
    for (const text of input.pieces('text', input.text)) {
      push('content_block_delta', { index, delta: { type: 'text_delta', text } }, { kind: 'text', text });
    }
    push('content_block_stop', { index });
    index++;
  }
  for (const call of input.toolCalls) {
    push('content_block_start', { index, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } });
    if (index === 0) push('ping');
    push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: '' } });
    for (const partial_json of input.pieces('tool_arguments', call.arguments)) {
      const content = { kind: 'tool_arguments' as const, text: partial_json };
      push('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }, content);
    }
    push('content_block_stop', { index });
    index++;
  }
  push('message_delta', {
    delta: { stop_reason: stopReason(input), stop_sequence: null },
    usage: {
      input_tokens: usage.input_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens,
      cache_read_input_tokens: usage.cache_read_input_tokens,
      output_tokens: usage.output_tokens,
      ...(usage.output_tokens_details ? { output_tokens_details: usage.output_tokens_details } : {}),
    },
  });
  push('message_stop');
  return events;
}

const anthropicErrorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

/** Anthropic's error body: `{ type: 'error', error: { type, message }, request_id }`. */
export function anthropicErrorBody(status: number, message: string, requestId: string): unknown {
  const type = anthropicErrorTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
  return { type: 'error', error: { type, message }, request_id: requestId };
}
