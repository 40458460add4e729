import { getNote, type NoteRecord, type OrgAccess } from '@docagent/core';
import { type ChatDeps, createThread, startChat } from '../../engine/chat-service.ts';
import type { ToolCallInfo, TurnResult } from '../../engine/events.ts';
import type { RewriteProposal } from './rewrite-tool.ts';

/** Seed 001's `POST /agent/act`: one message about a project, answered without streaming. */
export interface ActRequest {
  message: string;
  projectId: string;
  /** The note the message is about, when the client knows it. */
  noteId?: string;
  /** The conversation to continue; absent: a new one. */
  chatId?: string;
  model?: string | null;
}

/**
 * Seed 001's decision, derived from what the turn did. Writes are never applied here: a proposed
 * one is `pending_confirmation` with its call in `pending_tool_calls`, continued by the approve route.
 */
export interface ActDecision {
  should_edit: boolean;
  should_create: boolean;
  document_id: string | null;
  document_name: string | null;
  document_content: string | null;
  standing_instruction: string | null;
  needs_clarification: boolean;
  pending_confirmation: boolean;
  needs_web_search: boolean;
  search_query: string | null;
  intent_statement: string | null;
  reasoning: string | null;
  conversational_response: string | null;
  change_summary: string | null;
  content_summary: string | null;
  turn_id: string | null;
  pending_tool_calls: ToolCallInfo[];
}

export interface ActOutcome {
  /** The note the turn is about (as it is now: a proposed write is not applied), or null. */
  note: NoteRecord | null;
  chatId: string;
  turnId: string | null;
  reply: string;
  decision: ActDecision;
  webSearchPerformed: boolean;
}

export async function actOnProject(deps: ChatDeps, access: OrgAccess, request: ActRequest): Promise<ActOutcome> {
  const subject = { kind: 'project', id: request.projectId };
  const chatId = request.chatId ?? (await createThread(deps, access, subject, { title: request.message.slice(0, 80) })).id;
  const result = await startChat(deps, access, subject, {
    messages: [{ role: 'user', content: request.message }],
    threadId: chatId,
    model: request.model,
    mentions: request.noteId ? [{ type: 'note', id: request.noteId }] : undefined,
  });
  const decision = decisionOf(result);
  const noteId = decision.document_id ?? request.noteId ?? null;
  const { db } = deps.engine.services;
  const note = noteId ? await getNote(db, access.orgId, request.projectId, noteId).catch(() => null) : null;
  return {
    note,
    chatId,
    turnId: result.turn_id ?? null,
    reply: result.input_request?.question ?? result.text,
    decision: { ...decision, document_name: decision.document_name ?? note?.name ?? null },
    webSearchPerformed: decision.needs_web_search,
  };
}

const args = (call: ToolCallInfo | undefined) => (call?.arguments ?? {}) as Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' ? value : null);

function decisionOf(result: TurnResult): ActDecision {
  // A turn waiting for an answer lists its question's batch too: nothing there waits for approval.
  const pending = result.input_request ? [] : (result.tool_calls ?? []);
  const searches = result.executed_rounds.flatMap((r) => r.tool_calls).filter((c) => c.name === 'web_search');
  const create = pending.find((c) => c.name === 'create_note');
  const rewrite = pending.find((c) => c.name === 'rewrite_note');
  const other = pending.find((c) => c.name === 'rename_note' || c.name === 'delete_note');
  const proposal = rewrite?.proposal as RewriteProposal | undefined;
  const clarifying = result.input_request !== undefined;
  return {
    should_edit: rewrite !== undefined || other !== undefined,
    should_create: create !== undefined,
    document_id: text(args(rewrite ?? other).note_id),
    document_name: text(args(create).name) ?? proposal?.note_name ?? null,
    document_content: text(args(create).content) ?? proposal?.content ?? null,
    standing_instruction: text(args(create).standing_instruction),
    needs_clarification: clarifying,
    pending_confirmation: pending.length > 0,
    needs_web_search: searches.length > 0,
    search_query: text(args(searches.at(-1)).query),
    intent_statement: result.text || null,
    reasoning: result.thinking || null,
    conversational_response: pending.length === 0 ? (result.input_request?.question ?? result.text) : null,
    change_summary: proposal ? `${proposal.additions} lines added, ${proposal.deletions} removed` : null,
    content_summary: null,
    turn_id: result.turn_id ?? null,
    pending_tool_calls: pending,
  };
}
