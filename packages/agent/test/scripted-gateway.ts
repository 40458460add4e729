import type { MockLanguageModelV4 } from 'ai/test';
import type { LlmGateway } from '../src/index.ts';

/** What every scripted model call reports using. */
export const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

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
