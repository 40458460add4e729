import { randomBytes } from 'node:crypto';

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
    }
  | { kind: 'error'; status: number; message?: string; retryAfterSeconds?: number };

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

/** One server-sent event. `event` is the `event:` line (omitted by Chat Completions); `data` is JSON-encoded unless it is a string. */
export interface SseEvent {
  event?: string;
  data: unknown;
}

/** Everything a protocol module needs to render one answer. */
export interface RenderInput {
  reply: AnswerReply;
  model: string;
  usage: FakeUsage;
  toolCalls: { id: string; name: string; arguments: string }[];
  text: string | undefined;
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
export function splitIntoChunks(text: string, maxPiece = 24): string[] {
  const chars = Array.from(text);
  if (chars.length === 0) return [];
  const size = Math.max(1, Math.min(maxPiece, Math.ceil(chars.length / 3)));
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''));
  return pieces;
}

function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Normalizes an answer reply: resolved tool-call ids and argument strings, the text to send, and usage (estimated when not scripted). */
export function prepareAnswer(reply: AnswerReply, body: JsonBody, toolIdPrefix: string): RenderInput {
  const toolCalls = (reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? randomId(toolIdPrefix),
    name: call.name,
    arguments: toolArgumentsToString(call.arguments),
  }));
  const text = reply.text !== undefined && reply.text !== '' ? reply.text : toolCalls.length > 0 ? undefined : (reply.text ?? '');
  const outputText = (text ?? '') + (reply.reasoning?.text ?? '') + toolCalls.map((call) => call.arguments).join('');
  const usage: FakeUsage = reply.usage ?? {
    inputTokens: estimateTokens(JSON.stringify(body ?? {})),
    outputTokens: estimateTokens(outputText),
  };
  const model = typeof body?.model === 'string' ? body.model : 'fake-model';
  return { reply, model, usage, toolCalls, text };
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
