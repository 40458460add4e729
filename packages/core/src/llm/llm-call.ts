import { APICallError, type LanguageModel, type LanguageModelUsage, RetryError } from 'ai';
import { isDomainError, upstreamFailed } from '../errors.ts';
import { inLlmSpan, setLlmUsage } from './llm-span.ts';
import type { ModelRef } from './model-ids.ts';
import type { ModelRegistry, OrgModels } from './model-registry.ts';
import { assertWithinUsageLimit, type TokenUsage, tokenUsage, type UsageEntry, usageEntryOf, writeUsage } from './usage.ts';

export interface LlmCallRequest {
  orgId: string;
  /** Any accepted spelling; absent: the organization's default model. */
  model?: string | null;
  /** What the call is for, as recorded in the usage ledger (e.g. "extraction", "agent"). */
  operation: string;
  documentId?: string;
  /** What an agent turn is about; the ledger names a document subject as the call's document. */
  subject?: { kind: string; id: string };
  /**
   * The organization's model choices and limit when the caller read them already (an agent turn
   * reads them once per run); the month's spend is read at every call all the same.
   */
  models?: OrgModels;
  /**
   * Takes the call's usage entry instead of the ledger taking it at once, for a caller that
   * writes it with a statement of its own (an agent step's commit: one round trip fewer a step).
   * Such a caller must write it, also when its work fails after the call. The month's spend a
   * later call checks then counts it once it is written.
   */
  ledger?: (entry: UsageEntry) => void;
}

/** What a call gets to talk to the model with; pass maxRetries and timeout on to the AI SDK. */
export interface LlmCallContext {
  model: LanguageModel;
  ref: ModelRef;
  maxRetries: number;
  timeoutMs: number;
}

export interface LlmCallOutcome<T> {
  value: T;
  usage: LanguageModelUsage | undefined;
}

export interface LlmCallResult<T> {
  value: T;
  model: ModelRef;
  usage: TokenUsage;
  costUsd: number | null;
}

/**
 * Every LLM call of the product goes through here: the organization's usage limit is checked
 * before anything is sent, the model is resolved, and the tokens spent are recorded after,
 * also when the call failed after the provider had already answered. Each call is a `chat` span
 * (llm-span.ts): here rather than the AI SDK's telemetry, so one place covers every call.
 */
export async function callLlm<T>(
  registry: ModelRegistry,
  request: LlmCallRequest,
  run: (context: LlmCallContext) => Promise<LlmCallOutcome<T>>,
): Promise<LlmCallResult<T>> {
  const models = request.models ?? (await registry.snapshot(request.orgId));
  await assertWithinUsageLimit(registry.db, request.orgId, models.settings);
  const { ref, model } = registry.resolveIn(models, request.model);
  const record = async (usage: TokenUsage) => {
    const entry = usageEntryOf({
      orgId: request.orgId,
      model: ref,
      operation: request.operation,
      documentId: request.documentId ?? (request.subject?.kind === 'document' ? request.subject.id : undefined),
      usage,
    });
    if (request.ledger) request.ledger(entry);
    else await writeUsage(registry.db, entry);
    return entry.costUsd;
  };
  // What a failed call had spent already: the provider answered, then the answer failed.
  let spent: LanguageModelUsage | undefined;
  let outcome: LlmCallOutcome<T>;
  try {
    outcome = await inLlmSpan(ref, request.operation, async (span) => {
      try {
        const answered = await run({
          model,
          ref,
          maxRetries: registry.options.maxRetries,
          timeoutMs: registry.options.timeoutMs,
        });
        setLlmUsage(span, tokenUsage(answered.usage));
        return answered;
      } catch (error) {
        spent = (error as { usage?: LanguageModelUsage }).usage;
        throw isDomainError(error) ? error : describeProviderFailure(ref, error);
      }
    });
  } catch (error) {
    if (spent) await record(tokenUsage(spent));
    throw error;
  }
  const usage = tokenUsage(outcome.usage);
  const costUsd = await record(usage);
  return { value: outcome.value, model: ref, usage, costUsd };
}

/** Turns what the AI SDK threw into a message that says what happened and what to do. */
export function describeProviderFailure(ref: ModelRef, error: unknown) {
  const retried = RetryError.isInstance(error) ? error.errors.length : 1;
  const last = RetryError.isInstance(error) ? error.lastError : error;
  const attempts = retried > 1 ? ` after ${retried} attempts` : '';
  if (APICallError.isInstance(last)) {
    const status = last.statusCode;
    const said = providerMessage(last) ?? last.message;
    if (status === 401 || status === 403) {
      return upstreamFailed(`${ref.id}: the provider refused the credentials (${status}: ${said}). Check the API key.`, error);
    }
    if (status === 404) {
      return upstreamFailed(`${ref.id}: the provider does not know this model (404: ${said}). Pick another model.`, error);
    }
    if (status === 429) {
      return upstreamFailed(`${ref.id}: the provider is rate limiting us (429${attempts}: ${said}). Try again later.`, error);
    }
    return upstreamFailed(`${ref.id}: the provider failed${status ? ` (${status}${attempts})` : attempts}: ${said}`, error);
  }
  const message = last instanceof Error ? last.message : String(last);
  if (last instanceof Error && (last.name === 'TimeoutError' || last.name === 'AbortError')) {
    return upstreamFailed(
      `${ref.id}: the provider did not answer in time${attempts}. Try again, or raise LLM_TIMEOUT_SECONDS.`,
      error,
    );
  }
  return upstreamFailed(`${ref.id}: the call failed${attempts}: ${message}`, error);
}

function providerMessage(error: APICallError): string | undefined {
  const data = error.data as { error?: { message?: unknown } | string; message?: unknown } | undefined;
  const nested = typeof data?.error === 'object' ? data.error.message : data?.error;
  const text = nested ?? data?.message;
  return typeof text === 'string' ? text.slice(0, 500) : undefined;
}
