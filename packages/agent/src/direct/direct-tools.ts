import { invalidInput } from '@docagent/core';
import { z } from 'zod';
import type { Subject } from '../engine/pack.ts';
import type { SubjectCatalog } from '../engine/subjects.ts';
import type { ToolDefinition } from '../tools/tool.ts';

/** A JSON Schema object, as a client program reads a tool's arguments. */
export type JsonSchemaObject = { type: 'object'; properties?: Record<string, object>; required?: string[] } & Record<
  string,
  unknown
>;

/**
 * One tool as a program calling it directly (an MCP client) sees it: no conversation gives it a
 * subject, so the argument naming one is part of its input.
 */
export interface DirectTool {
  tool: ToolDefinition;
  /** The subject kind of the pack that brings the tool, when that pack owns one. */
  kind?: string;
  /** The argument naming the call's subject; `added` when the tool itself does not take it (it is removed before the tool sees the input). */
  subjectArgument?: { name: string; added: boolean };
  inputSchema: JsonSchemaObject;
}

/** The arguments of a direct call split into the call's subject and what the tool itself takes. */
export interface DirectInput {
  subject: Subject | null;
  toolInput: unknown;
}

/**
 * Every pack's tools, plus the tools only direct callers get, each once, with the JSON Schema of
 * its input. A tool name two packs bring is a mistake in the packs, found at start.
 */
export class DirectToolCatalog {
  private readonly tools = new Map<string, DirectTool>();

  constructor(subjects: SubjectCatalog) {
    const served = new Set(subjects.kindNames());
    for (const pack of subjects.packs) {
      const kind = (pack.owns ?? pack.serves).find((k) => served.has(k));
      // Tools made for direct calls name what they work on themselves.
      const tools = [
        ...pack.tools.map((tool) => ({ tool, argument: kind === undefined ? undefined : pack.subjectArgument })),
        ...(pack.directTools ?? []).map((tool) => ({ tool, argument: undefined })),
      ];
      for (const { tool, argument } of tools) {
        if (this.tools.has(tool.name)) throw new Error(`Two packs bring a tool named ${tool.name}.`);
        this.tools.set(tool.name, describe(tool, kind, argument));
      }
    }
  }

  all(): DirectTool[] {
    return [...this.tools.values()];
  }

  get(name: string): DirectTool {
    const entry = this.tools.get(name);
    if (!entry) {
      throw invalidInput(`There is no tool named "${name.slice(0, 100)}"; tools/list names every tool.`);
    }
    return entry;
  }

  /** The call's subject, named by its subject argument when given, and the arguments the tool takes. */
  splitInput(entry: DirectTool, rawInput: unknown): DirectInput {
    const input = rawInput ?? {};
    if (typeof input !== 'object' || Array.isArray(input)) {
      throw invalidInput(`Invalid arguments for ${entry.tool.name}: (input): expected an object of named arguments.`);
    }
    const argument = entry.subjectArgument;
    if (!argument || entry.kind === undefined) return { subject: null, toolInput: input };
    const { [argument.name]: named, ...rest } = input as Record<string, unknown>;
    if (named !== undefined && (typeof named !== 'string' || named.trim() === '' || named.length > 64)) {
      throw invalidInput(`Invalid arguments for ${entry.tool.name}: ${argument.name}: expected an id (1 to 64 characters).`);
    }
    return {
      subject: named === undefined ? null : { kind: entry.kind, id: named.trim() },
      toolInput: argument.added ? rest : input,
    };
  }
}

function describe(
  tool: ToolDefinition,
  kind: string | undefined,
  argument: { name: string; description: string } | undefined,
): DirectTool {
  const schema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema: _dialect, ...inputSchema } = schema;
  const properties = (inputSchema.properties ?? {}) as Record<string, object>;
  const entry: DirectTool = {
    tool,
    ...(kind === undefined ? {} : { kind }),
    inputSchema: { ...inputSchema, type: 'object', properties },
  };
  if (!argument) return entry;
  const added = !(argument.name in properties);
  if (added) {
    entry.inputSchema.properties = {
      [argument.name]: { type: 'string', description: argument.description },
      ...properties,
    };
  }
  return { ...entry, subjectArgument: { name: argument.name, added } };
}
