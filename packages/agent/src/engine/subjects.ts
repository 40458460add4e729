import { invalidInput, notFound, type OrgAccess } from '@docagent/core';
import type { ToolSet } from 'ai';
import { type ToolDefinition, ToolRegistry, type ToolServices } from '../tools/tool.ts';
import type { Mention, Pack, Subject } from './pack.ts';
import { toolSetOf } from './step.ts';

interface KindEntry {
  packs: Pack[];
  owner: Pack;
  tools: ToolRegistry;
  toolSet: ToolSet;
}

/** A pack's tools: its conversations' and the ones only direct calls get. */
const toolsOfPack = (pack: Pack): ToolDefinition[] => [...pack.tools, ...(pack.directTools ?? [])];

/**
 * The subject kinds the engine serves and, for each, its packs composed: the tools the model
 * gets, who checks that a subject exists, who resolves which @mentions.
 */
export class SubjectCatalog {
  private readonly kinds = new Map<string, KindEntry>();
  /** Every pack of a served kind, each once. */
  readonly packs: Pack[];

  constructor(packs: Pack[]) {
    const served = new Set(packs.flatMap((p) => p.serves));
    for (const kind of served) {
      const ofKind = packs.filter((p) => p.serves.includes(kind));
      const owners = ofKind.filter((p) => p.findSubject && (p.owns ?? p.serves).includes(kind));
      // A kind only guests serve is not served: its owner is not among these packs.
      if (owners.length === 0) continue;
      if (owners.length > 1) throw new Error(`Subject kind ${kind} needs exactly one pack that finds its subjects.`);
      const tools = new ToolRegistry(ofKind.flatMap((p) => p.tools));
      this.kinds.set(kind, { packs: ofKind, owner: owners[0] as Pack, tools, toolSet: toolSetOf(tools) });
    }
    this.packs = packs.filter((p) => p.serves.some((kind) => this.kinds.has(kind)));
  }

  private entry(kind: string): KindEntry {
    const entry = this.kinds.get(kind);
    if (!entry) {
      throw notFound(`Subject kind "${kind.slice(0, 64)}" (the agent talks about: ${[...this.kinds.keys()].join(', ')})`);
    }
    return entry;
  }

  kindNames(): string[] {
    return [...this.kinds.keys()];
  }

  packsOf(kind: string): Pack[] {
    return this.entry(kind).packs;
  }

  /** The names of every tool of every kind's conversations and of direct calls (what a permission rule may name). */
  toolNames(): string[] {
    return [...new Set(this.packs.flatMap(toolsOfPack).map((t) => t.name))].sort();
  }

  /** A tool by name, whichever pack brings it (an audited call names its tool, not its kind's registry). */
  findTool(name: string): ToolDefinition | undefined {
    return this.packs.flatMap(toolsOfPack).find((t) => t.name === name);
  }

  /** The tools of a subject kind's conversations. */
  toolsOf(kind: string): ToolRegistry {
    return this.entry(kind).tools;
  }

  /** The same tools as the model sees them (declarations only). */
  toolSetOf(kind: string): ToolSet {
    return this.entry(kind).toolSet;
  }

  /** The subject, checked by its pack: unknown, or another organization's, is "not found". */
  async find(services: ToolServices, access: OrgAccess, subject: Subject): Promise<{ title: string }> {
    const { owner } = this.entry(subject.kind);
    return (owner.findSubject as NonNullable<Pack['findSubject']>)(services, access, subject);
  }

  /** The mentioned resources in full, for the system message, by the packs of the subject's kind. */
  async resolveMentions(services: ToolServices, access: OrgAccess, subject: Subject, mentions: Mention[]): Promise<string> {
    const { kind } = subject;
    const packs = this.entry(kind).packs;
    const parts: string[] = [];
    for (const mention of mentions) {
      const pack = packs.find((p) => p.mentions?.kinds.includes(mention.type));
      if (!pack?.mentions) throw invalidInput(`A ${kind} conversation cannot mention a ${mention.type}.`);
      parts.push(await pack.mentions.resolve(services, access.orgId, mention, subject));
    }
    return parts.length === 0 ? '' : ['The person mentioned:', ...parts.map((p) => `- ${p}`)].join('\n');
  }
}
