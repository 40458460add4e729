import type { ProviderMetadata } from 'ai';
import type { TokenLogprob } from '../grounding/value-probabilities.ts';

/**
 * Asks the providers that can for the log-probability of each token of the answer: OpenAI's
 * Responses and Chat Completions APIs (other providers ignore options that are not theirs, and
 * the AI SDK drops the request with a warning for OpenAI's reasoning models, which have none).
 * One alternative per token is the least that turns them on.
 */
export const LOGPROB_OPTIONS = { openai: { logprobs: 1 } } as const;

/**
 * The answer's tokens with their log-probabilities, from a call made with LOGPROB_OPTIONS:
 * Chat Completions gives one list, the Responses API one list per text part of the message.
 * Undefined when the provider gave none.
 */
export function answerLogprobs(metadata: ProviderMetadata | undefined): TokenLogprob[] | undefined {
  const reported = metadata?.openai?.logprobs;
  if (!Array.isArray(reported) || reported.length === 0) return undefined;
  const tokens: TokenLogprob[] = [];
  for (const item of reported.flat()) {
    if (!isTokenLogprob(item)) return undefined;
    tokens.push({ token: item.token, logprob: item.logprob });
  }
  return tokens;
}

const isTokenLogprob = (item: unknown): item is TokenLogprob =>
  typeof item === 'object' &&
  item !== null &&
  typeof (item as TokenLogprob).token === 'string' &&
  typeof (item as TokenLogprob).logprob === 'number' &&
  Number.isFinite((item as TokenLogprob).logprob);
