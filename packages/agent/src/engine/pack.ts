import type { OrgAccess } from '@docagent/core';
import type { ToolDefinition, ToolServices, WorkingState } from '../tools/tool.ts';

/** What a conversation is about: `{kind, id}`, e.g. a document. The engine knows kinds only by name. */
export interface Subject {
  kind: string;
  id: string;
}

/** Something the person pointed at with @ in their message. */
export interface Mention {
  type: string;
  id: string;
}

export interface SectionInput {
  services: ToolServices;
  access: OrgAccess;
  subject: Subject;
  /** `provider:model`; small models get shorter sections. */
  modelId: string;
  small: boolean;
  workingState: WorkingState;
}

/**
 * A pack brings one kind of knowledge to the engine, declared once: its tools, the subject
 * kinds it serves, its section of the system message, the @mention kinds it resolves and the
 * keys of the working state it owns. The engine composes the packs of a turn's subject.
 */
export interface Pack {
  name: string;
  /** The subject kinds whose conversations get this pack. */
  serves: string[];
  tools: ToolDefinition[];
  /** The kinds whose subjects this pack finds (default: every kind it serves); it may serve others as a guest. */
  owns?: string[];
  /**
   * For the kinds this pack owns: that the subject exists in the access's organization (another
   * organization's is "not found"); answers what the subject is called.
   */
  findSubject?(services: ToolServices, access: OrgAccess, subject: Subject): Promise<{ title: string }>;
  /** The pack's part of every step's system message for a subject. */
  section(input: SectionInput): Promise<string>;
  /** The @mention kinds this pack resolves, and how: the full resource for the system message. */
  mentions?: {
    kinds: string[];
    /** `subject` is the conversation's: a mention may be looked up within it (a note within its project). */
    resolve(services: ToolServices, orgId: string, mention: Mention, subject: Subject): Promise<string>;
  };
  /** The working-state keys this pack's tools write (reported in the turn body as they are). */
  workingStateKeys?: readonly string[];
  /**
   * For calls with no conversation (an MCP client's): the argument that names a subject of the kind
   * this pack owns. A tool that takes it already keeps its own; the others get it added, since they
   * take their subject from the conversation.
   */
  subjectArgument?: { name: string; description: string };
  /** Tools only a program calling directly gets (sending a file's bytes), never a model in a chat. */
  directTools?: ToolDefinition[];
}
