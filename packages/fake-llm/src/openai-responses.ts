/**
 * OpenAI Responses API (POST /v1/responses), as parsed by @ai-sdk/openai@4 (`openaiResponsesResponseSchema`,
 * `openaiResponsesChunkSchema`).
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
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

interface OutputItemPlan {
  kind: 'reasoning' | 'message' | 'function_call';
  id: string;
  /** reasoning summary text, message text or function-call arguments */
  content: string;
  callId?: string;
  name?: string;
}

function planOutput(input: RenderInput): OutputItemPlan[] {
  const items: OutputItemPlan[] = [];
  if (input.reply.reasoning) items.push({ kind: 'reasoning', id: randomId('rs_'), content: input.reply.reasoning.text });
  if (input.text !== undefined) items.push({ kind: 'message', id: randomId('msg_'), content: input.text });
  for (const call of input.toolCalls) {
    items.push({ kind: 'function_call', id: randomId('fc_'), content: call.arguments, callId: call.id, name: call.name });
  }
  return items;
}

function outputTextPart(text: string, logprobs: unknown[] = []) {
  return { type: 'output_text', annotations: [], logprobs, text };
}

function completedItem(item: OutputItemPlan, logprobs?: unknown[]) {
  switch (item.kind) {
    case 'reasoning':
      return { id: item.id, type: 'reasoning', summary: [{ type: 'summary_text', text: item.content }] };
    case 'message':
      return {
        id: item.id,
        type: 'message',
        status: 'completed',
        content: [outputTextPart(item.content, logprobs)],
        role: 'assistant',
      };
    case 'function_call':
      return {
        id: item.id,
        type: 'function_call',
        status: 'completed',
        arguments: item.content,
        call_id: item.callId,
        name: item.name,
      };
  }
}

/** What a response object says of itself: its id, state, output and usage. */
function ownFields(input: RenderInput, id: string, createdAt: number, status: string, output: unknown[], usage: unknown) {
  return {
    id,
    object: 'response',
    created_at: createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    model: input.model,
    output,
    service_tier: 'default',
    truncation: 'disabled',
    usage,
    user: null,
    metadata: {},
  };
}

/** What a response object repeats of its request: the instructions, the tools and the settings. */
function echoedFields(body: JsonBody) {
  return {
    instructions: body?.instructions ?? null,
    max_output_tokens: body?.max_output_tokens ?? null,
    parallel_tool_calls: body?.parallel_tool_calls ?? true,
    previous_response_id: body?.previous_response_id ?? null,
    reasoning: { effort: fieldOf(body, 'reasoning', 'effort') ?? null, summary: fieldOf(body, 'reasoning', 'summary') ?? null },
    store: body?.store ?? true,
    temperature: body?.temperature ?? 1,
    text: body?.text ?? { format: { type: 'text' } },
    tool_choice: body?.tool_choice ?? 'auto',
    tools: Array.isArray(body?.tools) ? body.tools : [],
    top_p: body?.top_p ?? 1,
  };
}

export function responsesJson(input: RenderInput, body: JsonBody): unknown {
  const items = planOutput(input);
  const own = ownFields(
    input,
    randomId('resp_'),
    nowSeconds(),
    'completed',
    items.map((item) => completedItem(item, input.logprobs)),
    usageJson(input.usage),
  );
  return { ...own, ...echoedFields(body) };
}

export function responsesEvents(input: RenderInput, body: JsonBody): SseEvent[] {
  const items = planOutput(input);
  const id = randomId('resp_');
  const createdAt = nowSeconds();
  const events: SseEvent[] = [];
  const push = (type: string, fields: Record<string, unknown>, content?: { kind: ContentKind; text: string }) => {
    events.push({ event: type, data: { type, sequence_number: events.length, ...fields }, ...(content ? { content } : {}) });
  };
  // The stream sends the response object three times, each repeating the request's tools and
  // instructions (tens of kB): those are serialized once, and the object's own members around them.
  const echo = JSON.stringify(echoedFields(body));
  const responseText = (status: string, output: unknown[], usage: unknown) =>
    `${JSON.stringify(ownFields(input, id, createdAt, status, output, usage)).slice(0, -1)},${echo.slice(1)}`;
  const pushResponse = (type: string, response: string) => {
    events.push({ event: type, data: `{"type":"${type}","sequence_number":${events.length},"response":${response}}` });
  };
  const started = responseText('in_progress', [], null);
  pushResponse('response.created', started);
  pushResponse('response.in_progress', started);
  items.forEach((item, outputIndex) => {
    const base = { item_id: item.id, output_index: outputIndex };
    switch (item.kind) {
      case 'reasoning': {
        push('response.output_item.added', { output_index: outputIndex, item: { id: item.id, type: 'reasoning', summary: [] } });
        push('response.reasoning_summary_part.added', { ...base, summary_index: 0, part: { type: 'summary_text', text: '' } });
        for (const delta of input.pieces('reasoning', item.content)) {
          push('response.reasoning_summary_text.delta', { ...base, summary_index: 0, delta }, { kind: 'reasoning', text: delta });
        }
        push('response.reasoning_summary_text.done', { ...base, summary_index: 0, text: item.content });
        push('response.reasoning_summary_part.done', {
          ...base,
          summary_index: 0,
          part: { type: 'summary_text', text: item.content },
        });
        break;
      }
      case 'message': {
        push('response.output_item.added', {
          output_index: outputIndex,
          item: { id: item.id, type: 'message', status: 'in_progress', content: [], role: 'assistant' },
        });
        push('response.content_part.added', { ...base, content_index: 0, part: outputTextPart('') });
        for (const delta of input.pieces('text', item.content)) {
          push('response.output_text.delta', { ...base, content_index: 0, delta, logprobs: [] }, { kind: 'text', text: delta });
        }
        push('response.output_text.done', { ...base, content_index: 0, text: item.content, logprobs: [] });
        push('response.content_part.done', { ...base, content_index: 0, part: outputTextPart(item.content) });
        break;
      }
      case 'function_call': {
        push('response.output_item.added', {
          output_index: outputIndex,
          item: {
            id: item.id,
            type: 'function_call',
            status: 'in_progress',
            arguments: '',
            call_id: item.callId,
            name: item.name,
          },
        });
        for (const delta of input.pieces('tool_arguments', item.content)) {
          push('response.function_call_arguments.delta', { ...base, delta }, { kind: 'tool_arguments', text: delta });
        }
        push('response.function_call_arguments.done', { ...base, arguments: item.content });
        break;
      }
    }
    push('response.output_item.done', { output_index: outputIndex, item: completedItem(item) });
  });
  pushResponse(
    'response.completed',
    responseText(
      'completed',
      items.map((item) => completedItem(item)),
      usageJson(input.usage),
    ),
  );
  return events;
}

const openAiErrorTypes: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', code: 'unsupported_country_region_territory' },
  404: { type: 'invalid_request_error', code: 'model_not_found' },
  413: { type: 'invalid_request_error', code: 'request_too_large' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
};

/** OpenAI's error body (`{ error: { message, type, param, code } }`), shared by the Responses and Chat Completions APIs. */
export function openAiErrorBody(status: number, message: string): unknown {
  const known =
    openAiErrorTypes[status] ??
    (status >= 500 ? { type: 'server_error', code: null } : { type: 'invalid_request_error', code: null });
  return { error: { message, type: known.type, param: null, code: known.code } };
}
