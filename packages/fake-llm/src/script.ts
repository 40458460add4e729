import { randomBytes } from 'node:crypto';
import { type FakeTokenLogprob, requestedLogprobs, textLogprobs } from './token-logprobs.ts';

/** Token usage of one scripted reply. `inputTokens` is the TOTAL input, cached tokens included (as in the AI SDK's `usage.inputTokens`). */
export interface FakeUsage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens?: number;
  reasoningTokens?: number;
}

export interface FakeToolCall {
  id?: string;
  name: string;
  /** object → JSON.stringify; string → sent verbatim (use for malformed JSON) */
  arguments: unknown;
}

export type FakeReply =
  | {
      kind?: 'answer';
      text?: string;
      reasoning?: { text: string; signature?: string };
      toolCalls?: FakeToolCall[];
      usage?: FakeUsage;
      /** streaming only: stop sending after this many SSE events (without the terminal event) and destroy the socket */
      cutAfterEvents?: number;
      /** streaming only: send the content at a model's pace, one token per delta, instead of all at once */
      pace?: FakePace;
      /**
       * Non-streaming only, when the request asks for log-probabilities: how sure the model is of a
       * text of the answer (its first occurrence), as a log-probability; every other token is certain.
       */
      logprobs?: Record<string, number>;
    }
  | { kind: 'error'; status: number; message?: string; retryAfterSeconds?: number };

/**
 * A model's streaming pace: the first token after `firstTokenMs`, then `tokensPerSecond`. Each content delta then
 * carries one token: a word of text or reasoning (with the space before it), or four characters of tool-call JSON.
 */
export interface FakePace {
  firstTokenMs: number;
  tokensPerSecond: number;
}

/** What a content delta carries: answer text, reasoning, or a piece of a tool call's JSON arguments. */
export type ContentKind = 'text' | 'reasoning' | 'tool_arguments';

/**
 * A content delta as it left the server, so a client can tell how long a piece took to reach it through a proxy or an
 * agent. `request` is the index of its request in `requests` (until `reset`); `at` is epoch milliseconds with
 * sub-millisecond precision (`performance.timeOrigin + performance.now()`), comparable across the machine's processes.
 */
export interface SentChunk {
  request: number;
  kind: ContentKind;
  text: string;
  at: number;
}

export type AnswerReply = Exclude<FakeReply, { kind: 'error' }>;
export type ErrorReply = Extract<FakeReply, { kind: 'error' }>;

export type FakeProtocol = 'openai-responses' | 'openai-chat' | 'anthropic-messages';

export interface RecordedRequest {
  protocol: FakeProtocol;
  path: string;
  headers: Record<string, string>;
  // biome-ignore lint/suspicious/noExplicitAny: the parsed request JSON is inspected freely by tests
  body: any;
  stream: boolean;
}

/** A parsed request body: a JSON object, whose fields the renderers check before use. */
export type JsonBody = Record<string, unknown>;

/** A nested field of a request body (`fieldOf(body, 'reasoning', 'effort')`), undefined where the path breaks off. */
export function fieldOf(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/**
 * One server-sent event. `event` is the `event:` line (omitted by Chat Completions); `data` is JSON-encoded unless it
 * is a string. `content` marks the events that carry a content delta: those are paced and logged in `sent`.
 */
export interface SseEvent {
  event?: string;
  data: unknown;
  content?: { kind: ContentKind; text: string };
}

/** Everything a protocol module needs to render one answer. */
export interface RenderInput {
  reply: AnswerReply;
  model: string;
  usage: FakeUsage;
  toolCalls: { id: string; name: string; arguments: string }[];
  text: string | undefined;
  /** The text's tokens with their log-probabilities, when the request asked for them (not streamed). */
  logprobs: FakeTokenLogprob[] | undefined;
  /** How a streamed content is cut into deltas: a few pieces, or one token each when the reply is paced. */
  pieces(kind: ContentKind, content: string): string[];
}

export function isErrorReply(reply: FakeReply): reply is ErrorReply {
  return reply.kind === 'error';
}

export function randomId(prefix: string, bytes = 12): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

export function toolArgumentsToString(args: unknown): string {
  if (typeof args === 'string') return args;
  return JSON.stringify(args ?? {});
}

/**
 * Splits text into several pieces (at least 3 when the text has at least 3 characters, at most 24 characters each),
 * never inside a surrogate pair.
 */
function splitIntoChunks(text: string, maxPiece = 24): string[] {
  const chars = Array.from(text);
  if (chars.length === 0) return [];
  const size = Math.max(1, Math.min(maxPiece, Math.ceil(chars.length / 3)));
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''));
  return pieces;
}

/** One piece per token, as a paced reply streams them: words of text, four characters of JSON. */
function tokensOf(kind: ContentKind, content: string): string[] {
  if (kind === 'tool_arguments') {
    const chars = Array.from(content);
    const pieces: string[] = [];
    for (let i = 0; i < chars.length; i += 4) pieces.push(chars.slice(i, i + 4).join(''));
    return pieces;
  }
  // Each word with the whitespace before it; trailing whitespace goes with the last word.
  return content.match(/\s*\S+(?:\s+$)?/gu) ?? (content === '' ? [] : [content]);
}

/** About four characters a token. */
function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

/**
 * Normalizes an answer reply: resolved tool-call ids and argument strings, the text to send, and usage (estimated when
 * not scripted, the input from the request's text: `requestChars` is its length, so that a 25 kB request is not
 * serialized again to be measured).
 */
export function prepareAnswer(reply: AnswerReply, body: JsonBody, toolIdPrefix: string, requestChars: number): RenderInput {
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? randomId(toolIdPrefix),
    name: call.name,
    arguments: toolArgumentsToString(call.arguments),
  }));
  const text = reply.text !== undefined && reply.text !== '' ? reply.text : toolCalls.length > 0 ? undefined : (reply.text ?? '');
  const outputText = (text ?? '') + (reply.reasoning?.text ?? '') + toolCalls.map((call) => call.arguments).join('');
  const usage: FakeUsage = reply.usage ?? {
    inputTokens: estimateTokens(requestChars),
    outputTokens: estimateTokens(outputText.length),
  };
  const model = typeof body?.model === 'string' ? body.model : 'fake-model';
  const pieces = reply.pace ? tokensOf : (_kind: ContentKind, content: string) => splitIntoChunks(content);
  const asked = requestedLogprobs(body);
  const logprobs = asked && text !== undefined ? textLogprobs(text, reply.logprobs ?? {}, asked.alternatives) : undefined;
  return { reply, model, usage, toolCalls, text, logprobs, pieces };
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
