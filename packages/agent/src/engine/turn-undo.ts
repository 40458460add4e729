import { conflict, type Db, notFound, type OrgAccess, tables } from '@docagent/core';
import { and, eq, sql } from 'drizzle-orm';
import type { ToolDefinition, ToolServices, UndoneWrite, WorkingState } from '../tools/tool.ts';
import type { ChatDeps } from './chat-service.ts';
import type { SubjectCatalog } from './subjects.ts';
import type { AuditedCall } from './turn-state.ts';

const { agentRunRecords, agentTurns } = tables;

/** The name an undo has in the run record's calls (no tool has it): the audit shows it, a second undo finds it. */
export const UNDO_CALL = 'undo';

/** What an undo answers: the call it took back and what is current again. */
export interface UndoOutcome extends UndoneWrite {
  turn_id: string;
  /** The call undone, and its tool. */
  call_id: string;
  tool: string;
}

/**
 * Takes back the last write a turn applied, where its tool knows how (`ToolDefinition.undo`). Only
 * the turn's own user or an admin may (anyone else: not found, as for approving it); the turn must
 * have ended, so its last write stays its last. The run record is locked for the undo and records it
 * in the same transaction, so of two undos one wins and the other is refused as done already.
 */
export async function undoLastWrite(deps: ChatDeps, access: OrgAccess, turnId: string): Promise<UndoOutcome> {
  const { engine } = deps;
  return engine.services.db.transaction(async (tx) => {
    const [record] = await tx
      .select()
      .from(agentRunRecords)
      .where(and(eq(agentRunRecords.orgId, access.orgId), eq(agentRunRecords.turnId, turnId)))
      .for('update');
    const mayUndo = record && (access.role === 'admin' || (access.userId !== null && record.userId === access.userId));
    if (!record || !mayUndo) throw notFound(`Turn ${turnId}`);
    if (record.status === 'running' || record.status === 'paused') {
      throw conflict(`Turn ${turnId} is still ${record.status}: undo its last write once it has ended (or stop it first).`);
    }
    const calls = record.toolCalls as AuditedCall[];
    const last = calls.findLast((call) => isAppliedWrite(call, engine.subjects));
    if (!last) throw conflict(`Turn ${turnId} applied no write, so there is nothing to undo.`);
    if (last.name === UNDO_CALL) {
      const undone = last.arguments as { call_id?: string; tool?: string };
      throw conflict(`The last write of turn ${turnId} (${undone.tool}, call ${undone.call_id}) was undone already.`);
    }
    const tool = engine.subjects.findTool(last.name);
    if (!tool?.undo) throw conflict(`The last write of turn ${turnId} was ${last.name}, which cannot be undone: ${whyNot(tool)}`);
    const input = tool.input.safeParse(last.arguments ?? {});
    if (!input.success)
      throw conflict(`The audit of this ${last.name} call does not keep valid arguments, so it cannot be undone.`);
    const started = new Date();
    const thread = await threadOf(deps, tx, turnId);
    const workingState = structuredClone(thread?.workingState ?? {});
    const undone = await tool.undo(
      {
        access,
        subject: { kind: record.subjectKind, id: record.subjectId },
        services: onTransaction(engine.services, tx),
        workingState,
      },
      input.data,
      last.output,
    );
    if (thread && JSON.stringify(workingState) !== JSON.stringify(thread.workingState)) {
      await deps.threads.setWorkingState(tx, thread.id, workingState);
    }
    const entry: AuditedCall = {
      round_index: last.round_index,
      call_id: `undo-${last.call_id}`,
      name: UNDO_CALL,
      arguments: { call_id: last.call_id, tool: last.name },
      approval: 'user',
      decision: 'approved',
      reason: 'undone by the person',
      approved_by: access.userId,
      success: true,
      output: undone,
      started_at: started.toISOString(),
      duration_ms: Date.now() - started.getTime(),
    };
    await tx
      .update(agentRunRecords)
      .set({ toolCalls: sql`${agentRunRecords.toolCalls} || ${JSON.stringify([entry])}::jsonb`, updatedAt: new Date() })
      .where(eq(agentRunRecords.id, record.id));
    return { turn_id: turnId, call_id: last.call_id, tool: last.name, ...undone };
  });
}

/**
 * The conversation the turn was on and its working state, while the turn row still says which (it
 * is kept for a while after the turn ends); else null, and the undo leaves working states alone.
 */
async function threadOf(deps: ChatDeps, tx: Db, turnId: string): Promise<{ id: string; workingState: WorkingState } | null> {
  const [turn] = await tx.select({ threadId: agentTurns.threadId }).from(agentTurns).where(eq(agentTurns.id, turnId));
  if (!turn?.threadId) return null;
  const workingState = await deps.threads.lockedWorkingState(tx, turn.threadId);
  return workingState ? { id: turn.threadId, workingState } : null;
}

/** A write that ran and succeeded (allowed ahead or approved), or an earlier undo. */
function isAppliedWrite(call: AuditedCall, subjects: SubjectCatalog): boolean {
  if (!call.success) return false;
  if (call.name === UNDO_CALL) return true;
  return (call.approval === 'policy' || call.approval === 'user') && subjects.findTool(call.name)?.access === 'read_write';
}

/** Why a write without `undo` cannot be taken back, in the person's terms, from what its writes do. */
function whyNot(tool: ToolDefinition | undefined): string {
  switch (tool?.writeEffect) {
    case 'adds':
      return 'it made something new, which has no earlier version to go back to (delete it instead).';
    case 'removes':
      return 'what it deleted is gone with its versions.';
    default:
      return 'only changes of versioned things (a schema, a prompt, a note’s text, an extraction field) can be undone.';
  }
}

/** The services with every write on the undo's transaction, so the undo and its record commit together. */
function onTransaction(services: ToolServices, tx: Db): ToolServices {
  const { notes } = services;
  return { ...services, db: tx, ...(notes ? { notes: { ...notes, projects: { ...notes.projects, db: tx } } } : {}) };
}
