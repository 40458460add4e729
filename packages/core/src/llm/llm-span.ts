import { type Span, SpanKind } from '@opentelemetry/api';
import { inSpan } from '../telemetry/tracing.ts';
import type { ModelRef } from './model-ids.ts';
import type { TokenUsage } from './usage.ts';

/**
 * The GenAI semantic conventions' provider names for ours; the ones the conventions do not list
 * (ollama, openai-compatible) keep our name.
 */
const GEN_AI_PROVIDER: Record<string, string> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'gcp.gemini',
  groq: 'groq',
  xai: 'x_ai',
  mistral: 'mistral_ai',
};

/** Every call of ours is a chat completion (generateText, streamText, generateObject). */
const OPERATION = 'chat';

/**
 * Runs one model call in a client span named as the conventions ask (`chat {model}`). Only the
 * model, the call's purpose and token counts are recorded: prompts and answers hold documents.
 */
export function inLlmSpan<T>(ref: ModelRef, purpose: string, work: (span: Span) => Promise<T>): Promise<T> {
  const provider = GEN_AI_PROVIDER[ref.provider] ?? ref.provider;
  const attributes = {
    'gen_ai.operation.name': OPERATION,
    'gen_ai.provider.name': provider,
    // The attribute's name before semantic conventions 1.37, which many backends still read.
    'gen_ai.system': provider,
    'gen_ai.request.model': ref.model,
    'docagent.llm.purpose': purpose,
  };
  return inSpan(`${OPERATION} ${ref.model}`, { kind: SpanKind.CLIENT, attributes }, work);
}

/** The tokens a model call spent, on its span. */
export function setLlmUsage(span: Span, usage: TokenUsage): void {
  span.setAttributes({
    'gen_ai.usage.input_tokens': usage.inputTokens,
    'gen_ai.usage.output_tokens': usage.outputTokens,
    'docagent.llm.cached_tokens': usage.cachedTokens,
    'docagent.llm.reasoning_tokens': usage.reasoningTokens,
  });
}
