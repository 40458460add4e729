import {
  type Db,
  type DocumentServices,
  DomainError,
  type ExtractionServices,
  isDomainError,
  type OrgAccess,
} from '@docagent/core';
import { z } from 'zod';

/** What the agent is working on, carried across steps and turns (stored on the thread). */
export interface WorkingState {
  schemaRevid?: string;
  promptRevid?: string;
  /** The latest extraction the agent ran or patched: the prompt revision and its values. */
  extraction?: { promptRevid: string; values: Record<string, unknown> };
}

/** Everything a tool may use; tools call the same services as the REST routes, never HTTP. */
export interface ToolContext {
  access: OrgAccess;
  /** The document the conversation is about; tools default to it when `document_id` is omitted. */
  documentId: string;
  services: { db: Db; documents: DocumentServices; extraction: ExtractionServices };
  /** Tools that create or change the schema, prompt or extraction update it. */
  workingState: WorkingState;
  abortSignal: AbortSignal;
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
  run(context: ToolContext, input: z.infer<Input>): Promise<unknown>;
  /** For write tools a headless run may be allowed on some targets only: what this call would change. */
  target?(context: ToolContext, input: z.infer<Input>): Promise<WriteTarget>;
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
export async function executeTool(tool: ToolDefinition, context: ToolContext, rawInput: unknown): Promise<ToolOutcome> {
  const parsed = tool.input.safeParse(rawInput ?? {});
  if (!parsed.success) {
    const problems = problemsOf(parsed.error)
      .map((p) => `${p.path}: ${p.message}`)
      .join('; ');
    return { success: false, error: `Invalid arguments for ${tool.name}: ${problems}. Fix them and call the tool again.` };
  }
  try {
    const result = await tool.run(context, parsed.data);
    if (result && typeof result === 'object' && 'error' in result && typeof result.error === 'string') {
      return { success: false, error: result.error };
    }
    return { success: true, result };
  } catch (error) {
    if (isDomainError(error)) return { success: false, error: error.message };
    return { success: false, error: `${tool.name} failed: ${(error as Error).message}` };
  }
}

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

  /** Tool names by access, as `GET .../chat/tools` returns them. */
  byAccess(): { read_only: string[]; read_write: string[] } {
    const names = (access: ToolAccess) =>
      this.all()
        .filter((t) => t.access === access)
        .map((t) => t.name);
    return { read_only: names('read_only'), read_write: names('read_write') };
  }
}

/** An optional document id: the current document when omitted. */
export const documentIdField = z.string().min(1).max(64).optional().describe('Defaults to the current document');
