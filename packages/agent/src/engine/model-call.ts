import { retryWithExponentialBackoff } from '@ai-sdk/provider-utils';
import {
  APICallError,
  type ContentPart,
  type LanguageModel,
  type LanguageModelStreamPart,
  RetryError,
  experimental_streamLanguageModelCall as streamLanguageModelCall,
  type ToolCallRepairFunction,
  type ToolSet,
  type Warning,
} from 'ai';

import type { StepPrompt } from './prompt-cache.ts';

type ProviderOptions = NonNullable<Parameters<typeof streamLanguageModelCall>[0]['providerOptions']>;

/** The first wait before a retry, doubled for each next one (the AI SDK's defaults). */
const FIRST_RETRY_DELAY_MS = 2_000;
const BACKOFF_FACTOR = 2;
/** A provider's Retry-After longer than this is not waited for (unless our own backoff is longer). */
const LONGEST_RETRY_AFTER_MS = 60_000;

/**
 * How long to wait before trying again: what the provider asked for (`retry-after-ms`, or
 * `retry-after` in seconds or as a date) when that is under a minute, else the backoff, as the
 * AI SDK's own retries do.
 */
export function retryDelayMs({ error, exponentialBackoffDelay }: { error: unknown; exponentialBackoffDelay: number }): number {
  const headers = APICallError.isInstance(error) ? error.responseHeaders : undefined;
  if (!headers) return exponentialBackoffDelay;
  let ms: number | undefined;
  const retryAfterMs = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (!Number.isNaN(retryAfterMs)) ms = retryAfterMs;
  const retryAfter = headers['retry-after'];
  if (ms === undefined && retryAfter) {
    const seconds = Number.parseFloat(retryAfter);
    ms = Number.isNaN(seconds) ? Date.parse(retryAfter) - Date.now() : seconds * 1000;
  }
  if (ms !== undefined && !Number.isNaN(ms) && ms >= 0 && (ms < LONGEST_RETRY_AFTER_MS || ms < exponentialBackoffDelay))
    return ms;
  return exponentialBackoffDelay;
}

/**
 * A call's warnings (a setting or schema feature the provider ignores) go where `streamText` sent
 * them: to the AI SDK's warning logger, which the server sets to print each once a process; with
 * none set, to the process's warnings.
 */
export function reportCallWarnings(warnings: Warning[], modelId: string): void {
  if (warnings.length === 0) return;
  const at = modelId.indexOf(':');
  const logger = globalThis.AI_SDK_LOG_WARNINGS;
  if (logger === false) return;
  if (typeof logger === 'function') {
    logger({ warnings, provider: modelId.slice(0, at), model: modelId.slice(at + 1) });
    return;
  }
  for (const warning of warnings) process.emitWarning(`AI SDK Warning (${modelId}): ${JSON.stringify(warning)}`);
}

export interface ModelCall {
  stream: AsyncIterable<LanguageModelStreamPart<ToolSet>>;
  /** What the call produced, complete once its stream has ended. */
  content(): ReadonlyArray<ContentPart<ToolSet>>;
}

/**
 * One streamed model call through the AI SDK's single-call function: its prompt conversion, tool
 * preparation and tool-call parsing and repair, without `streamText`'s step loop, replayable
 * result and transform chain, which cost about 1 ms of a step (BENCHMARKS.md). What `streamText`
 * did besides is done here: a failed start (a 429, a 5xx) is tried again after the provider's
 * Retry-After or a backoff, up to `maxRetries` times (errors once streaming are not, as there);
 * the whole call, retries included, ends with a `TimeoutError` after `timeoutMs`. The stream must be
 * read to its end (or its reading ended), which clears the call's timer. The call starts in a later
 * turn of the event loop than the one it is asked in, after the I/O waiting then.
 */
export async function streamModelCall(
  options: StepPrompt & {
    model: LanguageModel;
    providerOptions: ProviderOptions;
    repairToolCall: ToolCallRepairFunction<ToolSet>;
    abortSignal: AbortSignal;
    maxRetries: number;
    timeoutMs: number;
  },
): Promise<ModelCall> {
  const { maxRetries, timeoutMs, abortSignal: stopped, ...call } = options;
  // A timer of our own, not AbortSignal.timeout: that one does not keep the process alive, so a
  // call of a headless run waiting on nothing else would never time out.
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new DOMException(`The model call took longer than ${timeoutMs / 1000} s.`, 'TimeoutError')),
    timeoutMs,
  );
  const abortSignal = AbortSignal.any([stopped, timeout.signal]);
  // The time limit reached while waiting to retry ends the wait with a plain AbortError, which
  // would read as the turn being stopped: it is the time limit.
  const timedOut = (error: unknown) => (timeout.signal.aborted && !stopped.aborted ? timeout.signal.reason : error);
  let content: ReadonlyArray<ContentPart<ToolSet>> = [];
  const retry = retryWithExponentialBackoff({
    maxRetries,
    initialDelayInMs: FIRST_RETRY_DELAY_MS,
    backoffFactor: BACKOFF_FACTOR,
    abortSignal,
    shouldRetry: (error) => APICallError.isInstance(error) && error.isRetryable,
    getDelayInMs: retryDelayMs,
    createRetryError: ({ message, reason, errors }) => new RetryError({ message, reason, errors }),
  });
  let stream: AsyncIterable<LanguageModelStreamPart<ToolSet>>;
  try {
    // The request is built once the I/O already waiting has been handled (an immediate runs
    // after the event loop's poll phase). When many conversations' steps end together, their
    // next requests (about a millisecond of CPU each) would otherwise be built before the
    // provider's events that other conversations have already received are sent on as frames.
    // At 200 turns at once on PostgreSQL the frames' p99 fell from 174-193 ms to 129-175 ms
    // (BENCHMARKS.md, eighteenth session); a single turn's steps take no longer.
    await new Promise((resolve) => setImmediate(resolve));
    // A turn stopped before its call started sends nothing to the provider.
    abortSignal.throwIfAborted();
    ({ stream } = await retry(() =>
      streamLanguageModelCall({
        ...call,
        abortSignal,
        onLanguageModelCallEnd: (event) => {
          content = event.content;
        },
      }),
    ));
  } catch (error) {
    clearTimeout(timer);
    throw timedOut(error);
  }
  async function* parts() {
    try {
      yield* stream;
    } catch (error) {
      throw timedOut(error);
    } finally {
      clearTimeout(timer);
    }
  }
  return { stream: parts(), content: () => content };
}
