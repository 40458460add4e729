import { fieldOf, type JsonBody } from './script.ts';

/** One token of an answer as OpenAI reports it when asked for log-probabilities. */
export interface FakeTokenLogprob {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

/** Whether the request asked for the answer's token log-probabilities (Chat Completions or Responses), and how many alternatives. */
export function requestedLogprobs(body: JsonBody): { alternatives: number } | undefined {
  const include = fieldOf(body, 'include');
  const asked = body.logprobs === true || (Array.isArray(include) && include.includes('message.output_text.logprobs'));
  if (!asked) return undefined;
  const top = fieldOf(body, 'top_logprobs');
  return { alternatives: typeof top === 'number' ? top : 0 };
}

/**
 * The answer text cut into tokens (a word or up to three digits with the space before it, or one
 * other character), each certain (log-probability 0) except where the script says otherwise: the
 * first token of the first occurrence of each scripted text gets its log-probability, so that the
 * occurrence as a whole has that probability. The tokens spell the text exactly.
 */
export function textLogprobs(text: string, scripted: Readonly<Record<string, number>>, alternatives: number): FakeTokenLogprob[] {
  const starts = new Map<number, number>();
  const cuts = new Set([0, text.length]);
  for (const [needle, logprob] of Object.entries(scripted)) {
    const at = needle === '' ? -1 : text.indexOf(needle);
    if (at < 0) continue;
    starts.set(at, logprob);
    cuts.add(at).add(at + needle.length);
  }
  const edges = [...cuts].sort((a, b) => a - b);
  const tokens: FakeTokenLogprob[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    let at = edges[i] ?? 0;
    for (const token of text.slice(at, edges[i + 1]).match(TOKEN) ?? []) {
      const logprob = starts.get(at) ?? 0;
      const bytes = [...Buffer.from(token, 'utf8')];
      tokens.push({ token, logprob, bytes, top_logprobs: alternatives > 0 ? [{ token, logprob, bytes }] : [] });
      at += token.length;
    }
  }
  return tokens;
}

const TOKEN = /\s*[\p{L}\p{M}]+|\s*\p{N}{1,3}|\s*[^\s\p{L}\p{M}\p{N}]|\s+/gu;
