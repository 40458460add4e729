import { isDeepStrictEqual } from 'node:util';
import { type Node, parseTree } from 'jsonc-parser';
import { childPath, leafValues } from './leaf-values.ts';

/** One token of a model's answer with its log-probability, as providers report them. */
export interface TokenLogprob {
  token: string;
  logprob: number;
}

/** The model's probability (0..1) of each leaf of its answer, by the leaf's path. */
export type ValueProbabilities = Record<string, number>;

/**
 * How sure the model was of each value of its JSON answer: the probability of the tokens that
 * spell the value (inside a string's quotes, the digits of a number), multiplied. That is the
 * probability of the value as a whole, so a model hesitating on one digit of an amount shows,
 * however sure it was of the rest. Only leaves whose value in `value` (the answer as checked and
 * stored) is what the text says are kept. Nothing is known when the tokens do not spell the
 * text (a character split over tokens, which providers report as bytes) or the text is not a
 * JSON object.
 */
export function answerProbabilities(
  text: string,
  tokens: readonly TokenLogprob[],
  value: Record<string, unknown>,
): ValueProbabilities {
  const starts = tokenStarts(text, tokens);
  const root = starts ? parseTree(text, [], { disallowComments: true }) : undefined;
  if (!starts || root?.type !== 'object') return {};
  const spans: LeafSpan[] = [];
  collectSpans(root, '', spans);
  const stored = new Map(leafValues(value).map((leaf) => [leaf.path, leaf.value]));
  const probabilities: ValueProbabilities = {};
  let first = 0;
  for (const span of spans) {
    if (!isDeepStrictEqual(stored.get(span.path), span.value)) continue;
    while (first < tokens.length && (starts[first] ?? 0) + (tokens[first]?.token.length ?? 0) <= span.from) first++;
    let logprob = 0;
    for (let t = first; t < tokens.length && (starts[t] ?? Infinity) < span.to; t++) logprob += tokens[t]?.logprob ?? 0;
    probabilities[span.path] = Math.round(Math.exp(logprob) * 1000) / 1000;
  }
  return probabilities;
}

/**
 * The probabilities that still describe an edited result: those of the values a person left as
 * the model answered them. A corrected value is the person's, not the model's.
 */
export function unchangedProbabilities(
  probabilities: ValueProbabilities,
  answered: Record<string, unknown>,
  edited: Record<string, unknown>,
): ValueProbabilities {
  const before = new Map(leafValues(answered).map((leaf) => [leaf.path, leaf.value]));
  const kept: ValueProbabilities = {};
  for (const leaf of leafValues(edited)) {
    const probability = probabilities[leaf.path];
    if (probability !== undefined && before.get(leaf.path) === leaf.value) kept[leaf.path] = probability;
  }
  return kept;
}

interface LeafSpan {
  path: string;
  value: string | number;
  /** Character offsets in the text of the value itself (a string without its quotes). */
  from: number;
  to: number;
}

/** Where each token starts in the text, or undefined when the tokens do not spell the text. */
function tokenStarts(text: string, tokens: readonly TokenLogprob[]): number[] | undefined {
  const starts: number[] = [];
  let at = 0;
  for (const { token } of tokens) {
    if (!text.startsWith(token, at)) return undefined;
    starts.push(at);
    at += token.length;
  }
  return at === text.length ? starts : undefined;
}

/** The strings and numbers of a parsed JSON value, in text order, with the paths leafValues gives them. */
function collectSpans(node: Node, path: string, spans: LeafSpan[]): void {
  if (node.type === 'object') {
    for (const property of node.children ?? []) {
      const [key, value] = property.children ?? [];
      if (typeof key?.value === 'string' && value) collectSpans(value, childPath(path, key.value), spans);
    }
  } else if (node.type === 'array') {
    for (const [i, item] of (node.children ?? []).entries()) collectSpans(item, childPath(path, i), spans);
  } else if (node.type === 'string' && typeof node.value === 'string') {
    spans.push({ path, value: node.value, from: node.offset + 1, to: node.offset + node.length - 1 });
  } else if (node.type === 'number' && typeof node.value === 'number') {
    spans.push({ path, value: node.value, from: node.offset, to: node.offset + node.length });
  }
}
