import {
  type AutoCreateLog,
  type AutoCreateRunner,
  autoCreateActor,
  beginAutoCreateAttempt,
  failAutoCreate,
  findSchemaVersion,
  getOrgLlmSettings,
  getPromptRevision,
  holdAutoCreate,
  isDomainError,
  type OrgAccess,
  proposeAutoCreate,
} from '@docagent/core';
import type { AgentEngine } from '../engine/agent-engine.ts';
import type { DeclaredWrite } from '../engine/decision.ts';
import type { AgentEvent } from '../engine/events.ts';

/** The fixed first message of the headless run (seed 000 section 4.2). */
export const AUTO_CREATE_INSTRUCTION =
  'Analyze this document. Create a schema that captures the key, repeatable fields for documents like this — ' +
  'focus on fields that would be uniform across similar documents, not every detail. ' +
  'Then create a prompt for extracting those fields, and run the extraction.';

/** Rounds of tool calls the agent may spend improving its work after its first successful extraction. */
export const AUTO_CREATE_REFINEMENT_ROUNDS = 2;
/** Invalid schemas (create_schema or update_schema refused) after which the run gives up. */
export const AUTO_CREATE_SCHEMA_ATTEMPTS = 3;
/** Enough for reading, a few schema attempts, prompt, extraction, the refinement rounds and a last answer. */
const MAX_STEPS = 14;

export const NO_PROVIDER_MESSAGE =
  'Auto-create is waiting: no LLM provider is configured for this organization. ' +
  'Configure one (an API key in the environment or in the organization LLM settings), then start auto-create again ("Try now" in the agent panel).';

const SCHEMA_TOOLS = new Set(['create_schema', 'update_schema']);

/**
 * The writes the run may make, and no others: its document's text may ask for anything, and
 * nobody is watching. New schemas and prompts (a name already taken by someone else's would
 * version theirs), changes to what it created, and extraction on its own document.
 */
export const AUTO_CREATE_WRITES: DeclaredWrite[] = [
  { tool: 'create_schema', target: 'own' },
  { tool: 'update_schema', target: 'own' },
  { tool: 'create_prompt', target: 'own' },
  { tool: 'update_prompt', target: 'own' },
  { tool: 'run_extraction', target: 'subject' },
  { tool: 'update_extraction_field', target: 'subject' },
];

export interface AutoCreateRunOptions {
  /** The cap on a whole run; past it the run is stopped and, without an extraction yet, fails. */
  timeoutMs: number;
}

type StopReason = 'timeout' | 'schema_invalid' | 'refined';

/**
 * Follows the headless turn's events: remembers its successful extractions, and stops the turn
 * (through its abort controller) when it has refined enough or written invalid schemas too often.
 */
class RunWatch {
  turnId: string | null = null;
  stopReason: StopReason | null = null;
  providerError: string | null = null;
  lastSchemaError = '';
  /** prompt_revid of each successful run_extraction, in order. */
  readonly extractions: string[] = [];
  private schemaFailures = 0;
  private firstExtractionRound: number | null = null;
  private refinements = 0;
  private readonly controller: AbortController;

  constructor(controller: AbortController) {
    this.controller = controller;
  }

  stop(reason: StopReason): void {
    this.stopReason ??= reason;
    this.controller.abort();
  }

  observe = (event: AgentEvent): void => {
    switch (event.type) {
      case 'turn_started':
        this.turnId = event.turn_id;
        return;
      case 'error':
        this.providerError = event.error;
        return;
      case 'tool_result':
        // A denied call is not an invalid schema: the model is told what it may do instead.
        if (SCHEMA_TOOLS.has(event.name) && !event.success && event.decision !== 'denied') {
          this.schemaFailures += 1;
          this.lastSchemaError = event.error ?? '';
          if (this.schemaFailures >= AUTO_CREATE_SCHEMA_ATTEMPTS) this.stop('schema_invalid');
        }
        if (event.name === 'run_extraction' && event.success) {
          const revid = (event.result as { prompt_revid?: unknown } | undefined)?.prompt_revid;
          if (typeof revid === 'string') this.extractions.push(revid);
          this.firstExtractionRound ??= event.round_index;
        }
        return;
      case 'round_executed':
        if (this.firstExtractionRound !== null && event.round_index > this.firstExtractionRound) {
          this.refinements += 1;
          if (this.refinements >= AUTO_CREATE_REFINEMENT_ROUNDS) this.stop('refined');
        }
        return;
      default:
        return;
    }
  };
}

/**
 * The headless auto-create run (seed 000 section 4): the document agent with its usual tools and
 * system message, its declared writes allowed and every other write denied, the fixed instruction,
 * the organization's auto-create model. It acts under a name of its own (`autoCreateActor`), so each schema and prompt revision it
 * writes says in itself which run made it. That makes the run idempotent per document: every
 * attempt starts by deleting what earlier attempts made, and a failure deletes what this one made.
 */
export class AutoCreateRun implements AutoCreateRunner {
  private readonly engine: AgentEngine;
  private readonly options: AutoCreateRunOptions;

  constructor(engine: AgentEngine, options: AutoCreateRunOptions) {
    this.engine = engine;
    this.options = options;
  }

  async run(documentId: string, attempt: { isLast: boolean }, signal: AbortSignal): Promise<void> {
    const { db, extraction } = this.engine.services;
    const claimed = await beginAutoCreateAttempt(db, documentId);
    if (!claimed) return;
    const { orgId } = claimed;
    if ((await extraction.llm.providers(orgId)).length === 0) {
      await holdAutoCreate(db, documentId, NO_PROVIDER_MESSAGE);
      return;
    }
    const access: OrgAccess = { orgId, role: 'user', userId: null, actor: autoCreateActor(documentId) };
    const { autoCreateModel } = await getOrgLlmSettings(db, orgId);

    const controller = new AbortController();
    const watch = new RunWatch(controller);
    const timer = setTimeout(() => watch.stop('timeout'), this.options.timeoutMs);
    // The worker giving the job up is not an outcome of the run: it ends the attempt, and the
    // retry deletes what it made.
    const onWorkerAbort = () => controller.abort();
    signal.addEventListener('abort', onWorkerAbort, { once: true });
    let failure: unknown;
    let finalText = '';
    try {
      const result = await this.engine.start(
        {
          access,
          subject: { kind: 'document', id: documentId },
          messages: [{ role: 'user', content: AUTO_CREATE_INSTRUCTION }],
          model: autoCreateModel,
          maxSteps: MAX_STEPS,
          declaredWrites: AUTO_CREATE_WRITES,
        },
        watch.observe,
        controller.signal,
      );
      finalText = result.text;
    } catch (error) {
      failure = error;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onWorkerAbort);
    }
    if (signal.aborted) throw new Error(`The auto-create run of document ${documentId} was stopped with its worker.`);
    // A fault of ours (not the provider's, not the model's) may pass on another attempt.
    if (failure !== undefined && !isDomainError(failure) && !attempt.isLast) throw failure;

    const log = await this.logOf(access, documentId, watch.turnId);
    const proposal = await this.proposalOf(access, documentId, watch.extractions);
    if (proposal && watch.stopReason !== 'schema_invalid') {
      const proposed = await proposeAutoCreate(db, documentId, { ...proposal, log });
      if (!proposed) return;
      this.engine.services.documents.events?.publish({
        type: 'auto_create.proposed',
        orgId,
        documentId,
        ...proposal,
        at: new Date().toISOString(),
      });
      return;
    }
    await failAutoCreate(db, documentId, this.failureMessage(watch, failure, finalText), log);
  }

  /** The latest extraction the run made with a prompt of its own, and that prompt's schema. */
  private async proposalOf(access: OrgAccess, documentId: string, extractions: string[]) {
    const { db } = this.engine.services;
    for (const promptRevid of [...extractions].reverse()) {
      const prompt = await getPromptRevision(db, access.orgId, promptRevid).catch(() => undefined);
      if (!prompt || prompt.createdBy !== autoCreateActor(documentId)) continue;
      const schema =
        prompt.schemaId === null
          ? undefined
          : await findSchemaVersion(db, access.orgId, prompt.schemaId, prompt.schemaVersion ?? undefined);
      return { promptRevid, schemaRevid: schema?.schemaRevid ?? null };
    }
    return undefined;
  }

  private async logOf(access: OrgAccess, documentId: string, turnId: string | null): Promise<AutoCreateLog> {
    const turn = turnId
      ? await this.engine.turnOf(turnId, access, { kind: 'document', id: documentId }).catch(() => undefined)
      : undefined;
    return {
      turnId,
      model: turn?.settings.model ?? null,
      messages: turn?.messages ?? [],
      workingState: (turn?.workingState ?? {}) as Record<string, unknown>,
    };
  }

  private failureMessage(watch: RunWatch, failure: unknown, finalText: string): string {
    const seconds = this.options.timeoutMs / 1000;
    switch (watch.stopReason) {
      case 'timeout':
        return `Auto-create stopped after its limit of ${seconds} s before any extraction succeeded. Try again with a faster model, or create the schema and prompt in the chat.`;
      case 'schema_invalid':
        return `Auto-create gave up: the agent wrote an invalid schema ${AUTO_CREATE_SCHEMA_ATTEMPTS} times (last: ${watch.lastSchemaError}). Try another model, or create the schema in the chat.`;
      default:
        break;
    }
    if (failure !== undefined) {
      const reason = watch.providerError ?? (failure as Error).message;
      return `Auto-create failed: ${reason} Check the provider settings and try again, or work in the chat.`;
    }
    const said = finalText.trim() ? ` (the agent said: "${finalText.trim().slice(0, 300)}")` : '';
    return `Auto-create ended without a successful extraction of a prompt of its own${said}. Work on the document in the chat instead.`;
  }
}
