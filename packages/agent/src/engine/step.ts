import {
  type JSONSchema7,
  jsonSchema,
  type LanguageModel,
  type LanguageModelUsage,
  type ModelMessage,
  type ToolCallRepairFunction,
  type ToolSet,
  tool,
  zodSchema,
} from 'ai';
import { jsonrepair } from 'jsonrepair';
import type { z } from 'zod';
import type { ToolRegistry } from '../tools/tool.ts';
import { requestInputTool } from './control-tools.ts';
import type { EventSink } from './events.ts';
import { historyForStep } from './history.ts';
import { reportCallWarnings, streamModelCall } from './model-call.ts';
import { withCacheBreakpoints } from './prompt-cache.ts';
import { responseMessagesOf } from './response-message.ts';

/** A call the model asked for; `invalid` says why it cannot run as asked (unknown tool, bad JSON). */
export interface ModelToolCall {
  id: string;
  name: string;
  input: unknown;
  invalid?: string;
  /** What the tool proposed to do (see ToolDefinition.propose), made once and kept while the call waits. */
  proposal?: unknown;
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
  for (const t of [...registry.all(), requestInputTool]) {
    set[t.name] = tool({ description: t.description, inputSchema: modelFacingSchema(t.input) });
  }
  return set;
}

/**
 * A tool's input schema as the model gets it: the JSON Schema the AI SDK makes of it, without the
 * draft marker (`$schema`) that it puts on each and that every request would repeat for every tool
 * (the document agent's tool definitions: 4854 → 4404 tokens a call, BENCHMARKS.md), and that the
 * Responses API echoes back three times a call.
 */
function modelFacingSchema(input: z.ZodType) {
  const schema = zodSchema(input);
  const withoutDraft = ({ $schema: _draft, ...rest }: JSONSchema7): JSONSchema7 => rest;
  return jsonSchema(
    () => {
      const full = schema.jsonSchema;
      return 'then' in full ? Promise.resolve(full).then(withoutDraft) : withoutDraft(full);
    },
    { validate: schema.validate },
  );
}

export interface StepInput {
  model: LanguageModel;
  /** `provider:model`, for the cross-model options. */
  modelId: string;
  system: string;
  messages: ModelMessage[];
  tools: ToolSet;
  roundIndex: number;
  /** How much history to send (the newest messages, whole tool exchanges). */
  historyBudgetTokens: number;
  emit: EventSink;
  abortSignal: AbortSignal;
  maxRetries: number;
  timeoutMs: number;
}

const REASONING_OPENAI = /^openai:(o\d|gpt-5)/;
const THINKING_ANTHROPIC = /^anthropic:claude-(sonnet-4|opus-4|3-7-sonnet)/;
const THINKING_GOOGLE = /^google:gemini-2\.5/;

/**
 * Provider options of seed 000 §11, per provider: one tool call at a time (OpenAI-style models
 * batch them otherwise); reasoning shown where the model has it; temperature left to the
 * provider (thinking models require their own). OpenAI's Responses API would otherwise refer
 * back to items it stored (`item_reference`); with store off the history we keep is sent in
 * full, so it replays anywhere, any time.
 */
export function providerOptionsFor(modelId: string) {
  return {
    openai: {
      parallelToolCalls: false,
      store: false,
      ...(REASONING_OPENAI.test(modelId) ? { reasoningSummary: 'auto', reasoningEffort: 'low' } : {}),
    },
    'openai-compatible': { parallelToolCalls: false },
    ollama: { parallelToolCalls: false },
    groq: { parallelToolCalls: false },
    xai: { parallelToolCalls: false },
    anthropic: {
      disableParallelToolUse: true,
      ...(THINKING_ANTHROPIC.test(modelId) ? { thinking: { type: 'enabled', budgetTokens: 2048 } } : {}),
    },
    ...(THINKING_GOOGLE.test(modelId) ? { google: { thinkingConfig: { includeThoughts: true } } } : {}),
  };
}

/**
 * Malformed tool-call JSON (a trailing comma, a missing brace) is repaired when it can be;
 * otherwise the call stays invalid and the model gets the parse error to correct.
 */
const repairToolCall: ToolCallRepairFunction<ToolSet> = async ({ toolCall }) => {
  try {
    return { ...toolCall, input: JSON.stringify(JSON.parse(jsonrepair(toolCall.input))) };
  } catch {
    return null;
  }
};

/** One LLM call, streamed: text and thinking go out as they come; tool calls are collected, not run. */
export async function runStep(input: StepInput): Promise<StepOutcome> {
  const provider = input.modelId.slice(0, input.modelId.indexOf(':'));
  const history = historyForStep(input.messages, provider, input.historyBudgetTokens);
  const call = await streamModelCall({
    model: input.model,
    ...withCacheBreakpoints(provider, input.system, history, input.tools),
    repairToolCall,
    abortSignal: input.abortSignal,
    maxRetries: input.maxRetries,
    timeoutMs: input.timeoutMs,
    providerOptions: providerOptionsFor(input.modelId),
  });
  let text = '';
  let thinking = '';
  const toolCalls: ModelToolCall[] = [];
  let usage: LanguageModelUsage | undefined;
  for await (const part of call.stream) {
    switch (part.type) {
      // A provider may pass on an empty delta (the AI SDK's OpenAI Chat Completions model does, for
      // the empty content such a stream opens with): a frame says something or is not sent.
      case 'text-delta':
        if (part.text === '') break;
        text += part.text;
        await input.emit({ type: 'assistant_text_chunk', chunk: part.text, round_index: input.roundIndex });
        break;
      case 'reasoning-delta':
        if (part.text === '') break;
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
      case 'model-call-start':
        reportCallWarnings(part.warnings, input.modelId);
        break;
      case 'model-call-end':
        usage = part.usage;
        break;
      case 'error':
        throw part.error;
    }
  }
  return { text, thinking, toolCalls, responseMessages: responseMessagesOf(call.content()), usage };
}

function describeInvalid(name: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `The call to ${name} could not be used: ${message.slice(0, 500)}. Check the tool name and send valid JSON arguments.`;
}
