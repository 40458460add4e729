/**
 * OpenAI Chat Completions (POST /v1/chat/completions), as parsed by @ai-sdk/openai-compatible@3
 * (`OpenAICompatibleChatResponseSchema`, `chunkBaseSchema`). Reasoning is sent as `reasoning_content`
 * (the DeepSeek / vLLM convention that the openai-compatible client reads).
 */
import {
  type ContentKind,
  type FakeUsage,
  fieldOf,
  type JsonBody,
  nowSeconds,
  type RenderInput,
  randomId,
  type SseEvent,
} from './script.ts';

function usageJson(usage: FakeUsage) {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function finishReason(input: RenderInput): string {
  return input.toolCalls.length > 0 ? 'tool_calls' : 'stop';
}

export function chatJson(input: RenderInput): unknown {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: input.text ?? null,
    refusal: null,
    annotations: [],
  };
  if (input.reply.reasoning) message.reasoning_content = input.reply.reasoning.text;
  if (input.toolCalls.length > 0) {
    message.tool_calls = input.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: randomId('chatcmpl-'),
    object: 'chat.completion',
    created: nowSeconds(),
    model: input.model,
    choices: [
      {
        index: 0,
        message,
        logprobs: input.logprobs ? { content: input.logprobs, refusal: null } : null,
        finish_reason: finishReason(input),
      },
    ],
    usage: usageJson(input.usage),
    service_tier: 'default',
    system_fingerprint: null,
  };
}

/** Usage arrives in a final `choices: []` chunk only when the request asked for it (`stream_options.include_usage`), as with OpenAI. */
export function chatEvents(input: RenderInput, body: JsonBody): SseEvent[] {
  const includeUsage = fieldOf(body, 'stream_options', 'include_usage') === true;
  const id = randomId('chatcmpl-');
  const created = nowSeconds();
  const events: SseEvent[] = [];
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, content?: { kind: ContentKind; text: string }) => {
    events.push({
      ...(content ? { content } : {}),
      data: {
        id,
        object: 'chat.completion.chunk',
        created,
        model: input.model,
        service_tier: 'default',
        system_fingerprint: null,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        ...(includeUsage ? { usage: null } : {}),
      },
    });
  };
  chunk({ role: 'assistant', content: '', refusal: null });
  if (input.reply.reasoning) {
    for (const piece of input.pieces('reasoning', input.reply.reasoning.text)) {
      chunk({ reasoning_content: piece }, null, { kind: 'reasoning', text: piece });
    }
  }
  if (input.text !== undefined) {
    for (const piece of input.pieces('text', input.text)) chunk({ content: piece }, null, { kind: 'text', text: piece });
  }
  input.toolCalls.forEach((call, index) => {
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const piece of input.pieces('tool_arguments', call.arguments)) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null, { kind: 'tool_arguments', text: piece });
    }
  });
  chunk({}, finishReason(input));
  if (includeUsage) {
    events.push({
      data: {
        id,
        object: 'chat.completion.chunk',
        created,
        model: input.model,
        service_tier: 'default',
        system_fingerprint: null,
        choices: [],
        usage: usageJson(input.usage),
      },
    });
  }
  events.push({ data: '[DONE]' });
  return events;
}
