import {
  type BatchServices,
  type DataRunServices,
  type Db,
  type DocumentServices,
  DomainError,
  type ExtractionServices,
  isDomainError,
  type OrgAccess,
  type ProjectServices,
  type TokenUsage,
  type UploadLimits,
  type WebSearchProvider,
} from '@docagent/core';
import type { z } from 'zod';
import type { LlmGateway } from '../engine/llm-gateway.ts';
import type { Subject } from '../engine/pack.ts';
import { inToolSpan } from './tool-span.ts';

/**
 * What the agent is working on, carried across steps and turns (stored on the thread). Each pack
 * owns its keys (the document pack: `schema_revid`, `prompt_revid`, `extraction`).
 */
export type WorkingState = Record<string, unknown>;

/** The domain services tools call: the same ones the REST routes call, never HTTP. */
export interface ToolServices {
  db: Db;
  documents: DocumentServices;
  extraction: ExtractionServices;
  /**
   * Datasets, their runs and the SQL and Python executors; absent in a process that serves no
   * datasets (a worker, whose headless runs are about documents).
   */
  data?: DataRunServices;
  /** Projects' notes and web search; absent in a process that serves no projects (a worker). */
  notes?: NoteServices;
  /** Batches and evaluations (jobs over many documents); absent in a worker. */
  batches?: BatchServices;
  /** The limits on a file sent in a call (upload_document); absent where no call may send one (a worker). */
  uploads?: UploadLimits;
}

/** What the notes pack needs besides the database: where note events go, and the web search provider. */
export interface NoteServices {
  projects: ProjectServices;
  /** Null when no provider is configured: web_search then says how to set one. */
  webSearch: WebSearchProvider | null;
}

/** Everything a tool may use. */
export interface ToolContext {
  access: OrgAccess;
  /** What the conversation is about; tools of its pack default to it. */
  subject: Subject;
  services: ToolServices;
  /** Tools that create or change what the agent works on update it. */
  workingState: WorkingState;
  /** The person's latest message, the one the turn answers, for tools that record why they ran. */
  userMessage?: string;
  /** The turn's model (`provider:model`) and the way to it, for tools that make a model call of their own. */
  modelId?: string;
  llm?: LlmGateway;
  /** For a tool with `propose`: what the person was shown and approved; the tool applies exactly this. */
  proposal?: unknown;
  abortSignal: AbortSignal;
  /** Counts a model call the tool made into the turn's usage (the ledger has it already). */
  addUsage(usage: TokenUsage, costUsd: number | null): void;
}

export type ToolAccess = 'read_only' | 'read_write';

/** What a write call would change, for runs that may change only some things (declared writes). */
export interface WriteTarget {
  /** The call works on the conversation's own subject. */
  subject: boolean;
  /** Who created what the call changes; null when it makes something new. */
  creator: string | null;
}

export interface ToolDefinition<Input extends z.ZodType = z.ZodType> {
  name: string;
  /** What the model reads to choose the tool; critical tools carry a concrete example. */
  description: string;
  input: Input;
  access: ToolAccess;
  /**
   * Why a read-only tool still asks before it runs (it spends model calls): it is decided as a
   * write is, though it changes nothing.
   */
  asksFirst?: string;
  /**
   * What a write does to what is there, for clients that show it before calling (MCP's annotations):
   * `adds` something new (a create, a new version), `replaces` what was there (the same call again
   * changes nothing more), or `removes` it. Undeclared: taken as the riskiest, a replace that is not
   * idempotent.
   */
  writeEffect?: 'adds' | 'replaces' | 'removes';
  run(context: ToolContext, input: z.infer<Input>): Promise<unknown>;
  /** How long one call may take (default DEFAULT_TOOL_TIME_LIMIT_MS); past it the call is aborted. */
  timeLimitMs?: number;
  /** For write tools a headless run may be allowed on some targets only: what this call would change. */
  target?(context: ToolContext, input: z.infer<Input>): Promise<WriteTarget>;
  /**
   * For a write whose change is computed (a rewrite by the model): computes it once, before the call
   * is decided, so that the approval shows it and `run` applies it as `context.proposal`. A proposal
   * that cannot be made fails the call before anyone is asked.
   */
  propose?(context: ToolContext, input: z.infer<Input>): Promise<unknown>;
  /**
   * For a write whose artifact is versioned: takes an applied call back, given its input and the
   * output the audit recorded, by making the version before it current again (a new version with
   * its content, so history is kept). Refuses with a domain error when the artifact changed since,
   * since undoing would then overwrite someone's later change. Tools without it cannot be undone.
   */
  undo?(context: UndoContext, input: z.infer<Input>, result: unknown): Promise<UndoneWrite>;
}

/**
 * What undoing a call may use: no turn runs, so no model or proposal. `workingState` is the
 * conversation's: an undo points it at what is current again where it pointed at the undone version.
 */
export type UndoContext = Pick<ToolContext, 'access' | 'subject' | 'services' | 'workingState'>;

/** What an undo made current again. */
export interface UndoneWrite {
  artifact: 'schema' | 'prompt' | 'note' | 'extraction_result';
  /** The ids that name it, e.g. schema_id and schema_revid, or document_id and prompt_revid. */
  ids: Record<string, string>;
  /** The version now current (a new one holding the earlier content); null where the artifact has no versions. */
  version: number | null;
  /** The version whose content is current again; null where the artifact has no versions. */
  restored_version: number | null;
  /** What was done, in words. */
  message: string;
}

/** Declares a tool once; the type of `run`'s input follows from the Zod schema. */
export function defineTool<Input extends z.ZodType>(tool: ToolDefinition<Input>): ToolDefinition<Input> {
  return tool;
}

export type ToolOutcome = { success: true; result: unknown } | { success: false; error: string };

/**
 * Runs a tool on raw model input. Never throws at the model: invalid arguments, domain errors
 * and crashes come back as an error it can read and correct.
 */
export function executeTool(tool: ToolDefinition, context: ToolContext, rawInput: unknown): Promise<ToolOutcome> {
  return inToolSpan(tool.name, 'run', () => attemptTool(tool, context, rawInput, tool.run));
}

/** Computes a tool's proposal (see `propose`) under the same rules as running it. */
export function proposeCall(tool: ToolDefinition, context: ToolContext, rawInput: unknown): Promise<ToolOutcome> {
  const { propose } = tool;
  if (!propose) return Promise.resolve({ success: true, result: undefined });
  return inToolSpan(tool.name, 'propose', () => attemptTool(tool, context, rawInput, propose));
}

/** One attempt of a tool action on raw input: checked arguments, a time limit, errors as outcomes. */
async function attemptTool(
  tool: ToolDefinition,
  context: ToolContext,
  rawInput: unknown,
  action: (context: ToolContext, input: unknown) => Promise<unknown>,
): Promise<ToolOutcome> {
  const parsed = tool.input.safeParse(rawInput ?? {});
  if (!parsed.success) return { success: false, error: invalidArguments(tool, parsed.error) };
  const limitMs = tool.timeLimitMs ?? DEFAULT_TOOL_TIME_LIMIT_MS;
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), limitMs);
  const abortSignal = AbortSignal.any([context.abortSignal, timer.signal]);
  const timedOut = new Promise<never>((_, reject) =>
    timer.signal.addEventListener('abort', () => reject(new ToolTimeLimit()), { once: true }),
  );
  try {
    const result = await Promise.race([action.call(tool, { ...context, abortSignal }, parsed.data), timedOut]);
    if (result && typeof result === 'object' && 'error' in result && typeof result.error === 'string') {
      // A code with its message ({error: "EXECUTION_ERROR", message}): the model needs both to fix its call.
      const message = 'message' in result && typeof result.message === 'string' ? `: ${result.message}` : '';
      return { success: false, error: `${result.error}${message}` };
    }
    return { success: true, result };
  } catch (error) {
    if (error instanceof ToolTimeLimit || timer.signal.aborted) {
      return {
        success: false,
        error: `${tool.name} took longer than ${limitMs >= 1000 ? `${Math.round(limitMs / 1000)} s` : `${limitMs} ms`} and was stopped. Try it on less (a page range, a smaller limit).`,
      };
    }
    if (isDomainError(error)) return { success: false, error: error.message };
    return { success: false, error: `${tool.name} failed: ${(error as Error).message}` };
  } finally {
    clearTimeout(timeout);
  }
}

/** What is wrong with a call's arguments, each problem with its field, as the caller (a model, an MCP client) reads it. */
export function invalidArguments(tool: ToolDefinition, error: z.ZodError): string {
  const problems = problemsOf(error)
    .map((p) => `${p.path}: ${p.message}`)
    .join('; ');
  return `Invalid arguments for ${tool.name}: ${problems}. Fix them and call the tool again.`;
}

/** Long enough for an extraction of a large document with one retry. */
export const DEFAULT_TOOL_TIME_LIMIT_MS = 300_000;

class ToolTimeLimit extends Error {}

/** A problem with a tool's input: where (dotted path, `(input)` for the whole) and what. */
export interface InputProblem {
  path: string;
  message: string;
}

function problemsOf(error: z.ZodError): InputProblem[] {
  return error.issues.map((i) => ({ path: i.path.join('.') || '(input)', message: i.message }));
}

/** The tools of one agent, by name. */
export class ToolRegistry {
  private readonly tools = new Map<string, ToolDefinition>();

  constructor(tools: ToolDefinition[]) {
    for (const tool of tools) {
      if (this.tools.has(tool.name)) throw new Error(`Two tools are named ${tool.name}.`);
      this.tools.set(tool.name, tool);
    }
  }

  get(name: string): ToolDefinition | undefined {
    return this.tools.get(name);
  }

  /** The problems of arguments for one of the tools, as running it would find them (none: it would run). */
  checkInput(name: string, rawInput: unknown): InputProblem[] {
    const tool = this.tools.get(name);
    if (!tool) throw new DomainError('not_found', `The agent has no tool named "${name}". GET .../chat/tools lists its tools.`);
    const parsed = tool.input.safeParse(rawInput ?? {});
    return parsed.success ? [] : problemsOf(parsed.error);
  }

  all(): ToolDefinition[] {
    return [...this.tools.values()];
  }

  /** The names of the tools whose applied calls can be undone. */
  undoable(): string[] {
    return this.all()
      .filter((t) => t.undo !== undefined)
      .map((t) => t.name);
  }

  /** Tool names by access, and the writes that can be undone, as `GET .../chat/tools` returns them. */
  byAccess(): { read_only: string[]; read_write: string[]; undoable: string[] } {
    const names = (access: ToolAccess) =>
      this.all()
        .filter((t) => t.access === access)
        .map((t) => t.name);
    return { read_only: names('read_only'), read_write: names('read_write'), undoable: this.undoable() };
  }
}
