import { generateText, jsonSchema, type ModelMessage, NoObjectGeneratedError, Output } from 'ai';
import type { Db } from '../db/database.ts';
import { getDocumentPageTexts } from '../documents/document-text.ts';
import { DomainError, invalidInput, isDomainError } from '../errors.ts';
import type { EventBus } from '../events/event-bus.ts';
import { answerProbabilities, type ValueProbabilities } from '../grounding/value-probabilities.ts';
import { callLlm, type LlmCallContext } from '../llm/llm-call.ts';
import type { ModelRegistry } from '../llm/model-registry.ts';
import type { TokenUsage } from '../llm/usage.ts';
import { type PromptRevision, resolvePromptRevision } from '../prompts/prompts.ts';
import type { ResponseFormat, SchemaProblem } from '../schemas/schema-validation.ts';
import { failureMessage } from '../scrub-errors.ts';
import { answerLogprobs, LOGPROB_OPTIONS } from './answer-logprobs.ts';
import { type ExtractionResult, findExtractionResult, saveExtractionResult } from './extraction-results.ts';
import { recordPromptOutcome } from './prompt-outcomes.ts';
import { checkValue, schemaOfPrompt } from './result-check.ts';

export interface ExtractionServices {
  db: Db;
  llm: ModelRegistry;
  /** Where a prompt's outcome on a document is announced (llm.completed, llm.error). */
  events?: EventBus;
}

/** About 100k tokens: beyond it most models refuse or forget; split the document instead. */
export const MAX_EXTRACTION_CHARS = 400_000;

/** The model answered twice without satisfying the schema: retrying will not help. */
export class ExtractionAnswerError extends DomainError {
  readonly problems: SchemaProblem[];
  constructor(message: string, problems: SchemaProblem[]) {
    super('upstream_failed', message);
    this.problems = problems;
  }
}

const SYSTEM = [
  'You extract information from documents into JSON.',
  "Use only what the document's text says; where it does not say, use null if the schema allows it, otherwise an empty value.",
  'Copy names, numbers, dates and identifiers exactly as written.',
].join(' ');

const describeProblems = (problems: SchemaProblem[]) =>
  problems
    .slice(0, 20)
    .map((p) => `${p.path || '(root)'}: ${p.message}`)
    .join('; ');

export interface RunExtractionOptions {
  force?: boolean;
  signal?: AbortSignal;
  /** Told of every model call's tokens and cost (an agent turn counts its tools' calls in its usage). */
  onUsage?: (usage: TokenUsage, costUsd: number | null) => void;
}

/**
 * Runs a prompt revision on a document's text and stores the answer. Without `force` a stored
 * result of that revision is returned as it is. The answer must be a JSON object satisfying the
 * prompt's schema; when it is not, the model is asked once more with what was wrong. How the run
 * ended is recorded as the prompt's latest outcome on the document, which settles the document's
 * state (extraction-state.ts), whoever asked for the run.
 */
export async function runExtraction(
  services: ExtractionServices,
  orgId: string,
  documentId: string,
  promptRevid: string,
  options: RunExtractionOptions = {},
): Promise<{ result: ExtractionResult; reused: boolean }> {
  const { db } = services;
  const prompt = await resolvePromptRevision(db, orgId, promptRevid);
  if (!options.force) {
    const stored = await findExtractionResult(db, orgId, documentId, prompt.promptRevid);
    if (stored) return { result: stored, reused: true };
  }
  // A document that is not there, or has no text yet, is no outcome of the prompt: nothing ran.
  const texts = await getDocumentPageTexts(db, orgId, documentId);
  let result: ExtractionResult;
  try {
    result = await extract(services, orgId, prompt, texts, options);
  } catch (error) {
    if (isPromptOutcome(error, options.signal)) {
      await recordPromptOutcome(db, documentId, prompt, { succeeded: false, error: failureMessage(error) }, services.events);
    }
    throw error;
  }
  await recordPromptOutcome(db, documentId, prompt, { succeeded: true }, services.events);
  return { result, reused: false };
}

/**
 * What a prompt revision answers for a document, checked against its schema like runExtraction's
 * answer, but stored nowhere and recorded as no outcome on the document: an evaluation scores it
 * against the verified result, which it must leave as the person made it.
 */
export async function answerExtraction(
  services: ExtractionServices,
  orgId: string,
  documentId: string,
  promptRevid: string,
  options: RunExtractionOptions = {},
): Promise<{ model: string; value: Record<string, unknown> }> {
  const prompt = await resolvePromptRevision(services.db, orgId, promptRevid);
  const texts = await getDocumentPageTexts(services.db, orgId, documentId);
  return askForAnswer(services, orgId, prompt, texts, options);
}

/**
 * Whether a failed run says something about the prompt on this document. A stopped run (the
 * caller aborted) does not, nor does a server with no provider at all: then nothing was tried,
 * and the prompts' job leaves the document waiting for a model instead (waiting-for-model.ts).
 */
const isPromptOutcome = (error: unknown, signal: AbortSignal | undefined) =>
  !signal?.aborted && !(isDomainError(error) && error.kind === 'unavailable');

/** Asks the model (twice at most) and stores its answer. */
async function extract(
  services: ExtractionServices,
  orgId: string,
  prompt: PromptRevision,
  texts: Awaited<ReturnType<typeof getDocumentPageTexts>>,
  options: RunExtractionOptions,
): Promise<ExtractionResult> {
  const { model, value, probabilities } = await askForAnswer(services, orgId, prompt, texts, options);
  return saveExtractionResult(services.db, orgId, texts.document.id, prompt, model, value, probabilities);
}

/** Asks the model (twice at most) for an answer satisfying the prompt's schema, with how sure it was of each value. */
async function askForAnswer(
  services: ExtractionServices,
  orgId: string,
  prompt: PromptRevision,
  { document, pages }: Awaited<ReturnType<typeof getDocumentPageTexts>>,
  options: RunExtractionOptions,
): Promise<{ model: string; value: Record<string, unknown>; probabilities: ValueProbabilities }> {
  const { db } = services;
  const documentId = document.id;
  const text = pages.map((p) => p.text).join('\n\n');
  if (text.length > MAX_EXTRACTION_CHARS) {
    throw invalidInput(
      `Document ${documentId} has ${text.length} characters of text; extraction takes at most ${MAX_EXTRACTION_CHARS}. Split the document and upload the parts.`,
    );
  }
  const schema = await schemaOfPrompt(db, orgId, prompt);
  const messages: ModelMessage[] = [{ role: 'user', content: userMessage(prompt, document.name, pages.length, text) }];
  const request = { orgId, operation: 'extraction', documentId };

  // Stopped by the caller (an agent turn stopped, a time cap): the abort itself, not a provider failure.
  const askModel = (model: string | null) =>
    callLlm(services.llm, { ...request, model }, (context) => ask(context, schema, messages, options.signal)).then(
      (outcome) => {
        options.onUsage?.(outcome.usage, outcome.costUsd);
        return outcome;
      },
      (error: unknown) => {
        options.signal?.throwIfAborted();
        throw error;
      },
    );
  const first = await askModel(prompt.model);
  let answer = first.value;
  if (!answer.valid) {
    messages.push(
      { role: 'assistant', content: answer.text || '(no answer)' },
      {
        role: 'user',
        content: `That answer cannot be stored: ${describeProblems(answer.errors)}. Answer again with only the JSON object, satisfying the schema.`,
      },
    );
    answer = (await askModel(first.model.id)).value;
  }
  if (!answer.valid) {
    throw new ExtractionAnswerError(
      `The model's answer to "${prompt.name}" failed twice: ${describeProblems(answer.errors)}.`,
      answer.errors,
    );
  }
  options.signal?.throwIfAborted();
  return { model: first.model.id, value: answer.value, probabilities: answer.probabilities };
}

function userMessage(prompt: PromptRevision, documentName: string, pageCount: number, text: string): string {
  return [
    prompt.content,
    '',
    `The document "${documentName}" (${pageCount} page${pageCount === 1 ? '' : 's'}) follows between <document> tags.`,
    '<document>',
    text,
    '</document>',
  ].join('\n');
}

type Answer =
  | { valid: true; value: Record<string, unknown>; probabilities: ValueProbabilities; text: string }
  | { valid: false; errors: SchemaProblem[]; text: string };

/** One model call: structured output from the schema (the provider's native mode where it has one), JSON otherwise. */
async function ask(
  context: LlmCallContext,
  schema: ResponseFormat | undefined,
  messages: ModelMessage[],
  abortSignal: AbortSignal | undefined,
) {
  const output = schema
    ? Output.object({ schema: jsonSchema(schema.json_schema.schema), name: schema.json_schema.name })
    : Output.json({ name: 'answer' });
  try {
    const result = await generateText({
      model: context.model,
      system: SYSTEM,
      messages,
      output,
      maxRetries: context.maxRetries,
      timeout: context.timeoutMs,
      abortSignal,
      providerOptions: LOGPROB_OPTIONS,
    });
    const check = checkValue(schema, result.output);
    const tokens = answerLogprobs(result.providerMetadata);
    const answer: Answer = check.valid
      ? {
          valid: true,
          value: check.value,
          probabilities: tokens ? answerProbabilities(result.text, tokens, check.value) : {},
          text: result.text,
        }
      : { valid: false, errors: check.errors, text: result.text };
    return { value: answer, usage: result.usage };
  } catch (error) {
    if (!NoObjectGeneratedError.isInstance(error)) throw error;
    const answer: Answer = {
      valid: false,
      errors: [{ path: '', message: `is not valid JSON (${error.cause instanceof Error ? error.cause.message : 'unparsable'})` }],
      text: error.text ?? '',
    };
    return { value: answer, usage: error.usage };
  }
}
