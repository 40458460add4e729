import { type LanguageModel, type LanguageModelUsage, type ModelMessage, streamText, type ToolSet, tool, zodSchema } from 'ai';
import type { ToolRegistry } from '../tools/tool.ts';
import { requestInputTool } from './control-tools.ts';
import type { EventSink } from './events.ts';

/** A call the model asked for; `invalid` says why it cannot run as asked (unknown tool, bad JSON). */
export interface ModelToolCall {
  id: string;
  name: string;
  input: unknown;
  invalid?: string;
}

export interface StepOutcome {
  text: string;
  thinking: string;
  toolCalls: ModelToolCall[];
  /** The assistant message(s) of this step, provider parts (signatures, reasoning items) as received. */
  responseMessages: ModelMessage[];
  usage: LanguageModelUsage | undefined;
}

/** The tools as the model sees them: declarations only; the engine runs them under its policy. */
export function toolSetOf(registry: ToolRegistry): ToolSet {
  const set: ToolSet = {};
  for (const t of registry.all()) set[t.name] = tool({ description: t.description, inputSchema: zodSchema(t.input) });
  set[requestInputTool.name] = tool({
    description: requestInputTool.description,
    inputSchema: zodSchema(requestInputTool.input),
  });
  return set;
}

export interface StepInput {
  model: LanguageModel;
  /** `provider:model`, for the cross-model options. */
  modelId: string;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  roundIndex: number;
  emit: EventSink;
  abortSignal: AbortSignal;
  maxRetries: number;
  timeoutMs: number;
}

/**
 * Provider options of seed 000 §11: OpenAI-style models batch tool calls unless told not to.
 * OpenAI's Responses API would otherwise refer back to items it stored (`item_reference`);
 * with store off the history we keep is sent in full, so it replays anywhere, any time.
 */
function providerOptionsFor(modelId: string) {
  return {
    openai: { parallelToolCalls: false, store: false },
    'openai-compatible': { parallelToolCalls: false },
    groq: { parallelToolCalls: false },
    xai: { parallelToolCalls: false },
    ...(modelId.startsWith('anthropic:') ? { anthropic: { disableParallelToolUse: true } } : {}),
  };
}

/** One LLM call, streamed: text and thinking go out as they come; tool calls are collected, not run. */
export async function runStep(input: StepInput): Promise<StepOutcome> {
  const result = streamText({
    model: input.model,
    system: input.system,
    messages: input.messages,
    tools: input.tools,
    abortSignal: input.abortSignal,
    maxRetries: input.maxRetries,
    timeout: input.timeoutMs,
    providerOptions: providerOptionsFor(input.modelId),
  });
  let text = '';
  let thinking = '';
  const toolCalls: ModelToolCall[] = [];
  let usage: LanguageModelUsage | undefined;
  for await (const part of result.fullStream) {
    switch (part.type) {
      case 'text-delta':
        text += part.text;
        await input.emit({ type: 'assistant_text_chunk', chunk: part.text, round_index: input.roundIndex });
        break;
      case 'reasoning-delta':
        thinking += part.text;
        await input.emit({ type: 'thinking_chunk', chunk: part.text, round_index: input.roundIndex });
        break;
      case 'tool-call':
        toolCalls.push({
          id: part.toolCallId,
          name: part.toolName,
          input: part.input,
          invalid: part.dynamic && part.invalid ? describeInvalid(part.toolName, part.error) : undefined,
        });
        break;
      case 'finish':
        usage = part.totalUsage;
        break;
      case 'error':
        throw part.error;
      case 'abort':
        throw new DOMException('The step was stopped.', 'AbortError');
    }
  }
  const response = await result.response;
  return { text, thinking, toolCalls, responseMessages: response.messages, usage };
}

function describeInvalid(name: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `The call to ${name} could not be used: ${message.slice(0, 500)}. Check the tool name and send valid JSON arguments.`;
}
