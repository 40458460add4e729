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
export function inLlmSpan<T>(purpose: string, work: (span: LlmSpan) => Promise<T>): Promise<T> {
  return inSpan(
    OPERATION,
    { kind: SpanKind.CLIENT, attributes: { 'gen_ai.operation.name': OPERATION, 'docagent.llm.purpose': purpose } },
    (span) => work(llmSpanOf(span)),
  );
}

/** What a model call tells its span as it learns it. */
export interface LlmSpan {
  /** Known once the organization's model is resolved, after the span starts (the usage-limit check is part of the call). */
  model(ref: ModelRef): void;
  usage(usage: TokenUsage): void;
}

function llmSpanOf(span: Span): LlmSpan {
  return {
    model(ref) {
      const provider = GEN_AI_PROVIDER[ref.provider] ?? ref.provider;
      span.updateName(`${OPERATION} ${ref.model}`);
      span.setAttributes({
        'gen_ai.provider.name': provider,
        // The attribute's name before semantic conventions 1.37, which many backends still read.
        'gen_ai.system': provider,
        'gen_ai.request.model': ref.model,
      });
    },
    usage(usage) {
      span.setAttributes({
        'gen_ai.usage.input_tokens': usage.inputTokens,
        'gen_ai.usage.output_tokens': usage.outputTokens,
        'docagent.llm.cached_tokens': usage.cachedTokens,
        'docagent.llm.reasoning_tokens': usage.reasoningTokens,
      });
    },
  };
}
