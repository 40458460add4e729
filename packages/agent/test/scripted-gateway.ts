import type { LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { MockLanguageModelV4 } from 'ai/test';
import type { LlmGateway } from '../src/index.ts';

/** What every scripted model call reports using. */
export const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** One scripted model step: reasoning, text and tool calls (`rawCalls` keep their input as sent, valid JSON or not). */
export interface ScriptedStep {
  text?: string;
  thinking?: string;
  calls?: Array<{ id: string; name: string; input: unknown }>;
  rawCalls?: Array<{ id: string; name: string; input: string }>;
}

/** The stream a provider sends for the step: text in pieces of up to 5 characters, then a finish with `usage`. */
export function streamPartsOf(step: ScriptedStep): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (step.thinking) {
    parts.push(
      { type: 'reasoning-start', id: 'r' },
      { type: 'reasoning-delta', id: 'r', delta: step.thinking },
      { type: 'reasoning-end', id: 'r' },
    );
  }
  if (step.text) {
    parts.push({ type: 'text-start', id: 't' });
    for (const piece of step.text.match(/.{1,5}/gs) ?? []) parts.push({ type: 'text-delta', id: 't', delta: piece });
    parts.push({ type: 'text-end', id: 't' });
  }
  const calls = [...(step.calls ?? []).map((c) => ({ ...c, input: JSON.stringify(c.input) })), ...(step.rawCalls ?? [])];
  for (const c of calls) parts.push({ type: 'tool-call', toolCallId: c.id, toolName: c.name, input: c.input });
  parts.push({ type: 'finish', usage, finishReason: { unified: calls.length > 0 ? 'tool-calls' : 'stop', raw: undefined } });
  return parts;
}

/** The model layer of the engine's tests: a scripted model, no usage limit, a fixed cost per call. */
export function gatewayOf(model: MockLanguageModelV4): LlmGateway {
  const gateway: LlmGateway = {
    resolve: async () => 'openai:scripted',
    call: async (_request, run) => {
      const outcome = await run({
        model,
        ref: { provider: 'openai', model: 'scripted', id: 'openai:scripted' },
        maxRetries: 0,
        timeoutMs: 10_000,
      });
      return { value: outcome.value, costUsd: 0.001 };
    },
    forRun: () => gateway,
  };
  return gateway;
}
