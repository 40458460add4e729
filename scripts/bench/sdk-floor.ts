import { isDeepStrictEqual } from 'node:util';
import { createOpenAI } from '@ai-sdk/openai';
import type { FakeLlmServer } from '@docagent/fake-llm';
import { experimental_streamLanguageModelCall, jsonSchema, type ModelMessage, type ToolSet, tool } from 'ai';
import { nowMs } from './measure.ts';

/**
 * The engine benchmark's second floor: the same provider requests sent through the AI SDK's
 * OpenAI provider, as docagent's engine sends them (its single-call function: prompt conversion,
 * tool preparation, the provider's request, and parsing and validating every event of the answer),
 * each answer read to its end, with nothing else around them. What a step costs beyond it is the
 * engine's own part; what it costs beyond the plain floor includes the library's part, which any
 * program using this provider pays.
 */

// biome-ignore lint/suspicious/noExplicitAny: a Responses API request as recorded, read field by field
type Item = any;

interface SdkCall {
  instructions: string;
  messages: ModelMessage[];
  tools: ToolSet;
  /** The request's own settings, so that the floor takes them from the engine instead of repeating them. */
  providerOptions: { openai: { parallelToolCalls?: boolean; store?: boolean } };
}

/** A recorded Responses API request of the engine as the AI SDK call that produced it. */
function callOf(body: Item): SdkCall {
  const items: Item[] = body.input;
  const names = new Map<string, string>();
  const messages: ModelMessage[] = [];
  let instructions = '';
  for (const item of items) {
    if (item.role === 'system') instructions = item.content;
    else if (item.role === 'user') {
      messages.push({ role: 'user', content: item.content.map((part: Item) => ({ type: 'text', text: part.text })) });
    } else if (item.type === 'function_call') {
      names.set(item.call_id, item.name);
      messages.push({
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: item.call_id, toolName: item.name, input: JSON.parse(item.arguments) }],
      });
    } else if (item.type === 'function_call_output') {
      messages.push({
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: item.call_id,
            toolName: names.get(item.call_id) ?? '',
            output: { type: 'json', value: JSON.parse(item.output) },
          },
        ],
      });
    } else throw new Error(`the SDK floor cannot replay a request item ${JSON.stringify(item).slice(0, 200)}`);
  }
  const tools: ToolSet = {};
  for (const t of body.tools as Item[]) {
    tools[t.name] = tool({ description: t.description, inputSchema: jsonSchema(t.parameters) });
  }
  const providerOptions = { openai: { parallelToolCalls: body.parallel_tool_calls, store: body.store } };
  return { instructions, messages, tools, providerOptions };
}

/**
 * The floor through the AI SDK for these recorded requests. Its first run checks that the
 * provider sent the very requests that were recorded, so that both floors measure the same calls.
 */
export function sdkFloor(fake: FakeLlmServer, bodies: string[]): () => Promise<number> {
  const recorded: Item[] = bodies.map((body) => JSON.parse(body));
  const model = createOpenAI({ baseURL: fake.baseUrl, apiKey: 'sk-bench' })(recorded[0]?.model);
  const calls = recorded.map(callOf);
  let checked = false;
  return async () => {
    const first = fake.requests.length;
    const started = nowMs();
    for (const call of calls) {
      const { stream } = await experimental_streamLanguageModelCall({ model, ...call });
      for await (const part of stream) {
        if (part.type === 'error') throw new Error(`the SDK floor's call failed: ${String(part.error)}`);
      }
    }
    const elapsed = nowMs() - started;
    if (!checked) {
      const sent = fake.requests.slice(first).map((r) => r.body);
      if (!isDeepStrictEqual(sent, recorded)) {
        throw new Error('the SDK floor did not send the recorded requests: the replay (sdk-floor.ts) needs updating');
      }
      checked = true;
    }
    return elapsed;
  };
}
