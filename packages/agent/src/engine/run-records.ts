import { type Db, forbidden, newId, notFound, type OrgAccess, pageOfTable, tables } from '@docagent/core';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { TurnUsage } from './events.ts';
import type { Subject } from './pack.ts';
import type { AuditedCall, Turn } from './turn-state.ts';

const { agentRunRecords } = tables;

export type RunRecord = typeof agentRunRecords.$inferSelect;

function requireAdmin(access: OrgAccess): void {
  if (access.role !== 'admin') throw forbidden("Only an organization's admins can read its agent run records.");
}

/** The audit of the organization's agent turns, newest first. Admins only. */
export async function listRunRecords(
  db: Db,
  access: OrgAccess,
  page: { skip: number; limit: number },
): Promise<{ records: RunRecord[]; total: number }> {
  requireAdmin(access);
  const where = eq(agentRunRecords.orgId, access.orgId);
  const { rows: records, total } = await pageOfTable(
    db,
    agentRunRecords,
    where,
    [desc(agentRunRecords.createdAt), desc(agentRunRecords.id)],
    page,
  );
  return { records, total };
}

export async function getRunRecord(db: Db, access: OrgAccess, runId: string): Promise<RunRecord> {
  requireAdmin(access);
  const [record] = await db
    .select()
    .from(agentRunRecords)
    .where(and(eq(agentRunRecords.orgId, access.orgId), eq(agentRunRecords.id, runId)));
  if (!record) throw notFound(`Run record ${runId}`);
  return record;
}

/**
 * Appends a step's audited calls to the turn's run record and brings its status and usage up to
 * date; the turn's first commit writes the record (it outlives the turn row). Opening a turn
 * writes no record of its own: that saved a transaction (three round trips) on every turn.
 */
export async function appendRunRecord(db: Db, turn: Turn, calls: AuditedCall[]): Promise<void> {
  await runRecordUpsert(db, turn, calls);
}

/** The statement of appendRunRecord, for a step's commit to carry with its own. */
export function runRecordStatement(db: Db, turn: Turn, calls: AuditedCall[]): SQL {
  return runRecordUpsert(db, turn, calls).getSQL();
}

function runRecordUpsert(db: Db, turn: Turn, calls: AuditedCall[]) {
  return db
    .insert(agentRunRecords)
    .values({
      id: turn.id,
      turnId: turn.id,
      orgId: turn.orgId,
      userId: turn.userId,
      subjectKind: turn.subject.kind,
      subjectId: turn.subject.id,
      status: turn.status,
      model: turn.settings.model,
      toolCalls: calls,
      usage: turn.progress.usage as unknown as Record<string, unknown>,
    })
    .onConflictDoUpdate({
      target: agentRunRecords.id,
      set: {
        status: sql`excluded.status`,
        model: sql`excluded.model`,
        toolCalls: sql`${agentRunRecords.toolCalls} || excluded.tool_calls`,
        usage: sql`excluded.usage`,
        updatedAt: sql`now()`,
      },
    });
}

/**
 * The run record of one direct call (an MCP client's): a run of one call, with no model of its
 * own, so `model` names the caller (`mcp`).
 */
export async function recordDirectCall(
  db: Db,
  access: OrgAccess,
  run: { subject: Subject; caller: string; status: string; call: AuditedCall; usage: TurnUsage },
): Promise<string> {
  const id = newId();
  await db.insert(agentRunRecords).values({
    id,
    turnId: id,
    orgId: access.orgId,
    userId: access.userId,
    subjectKind: run.subject.kind,
    subjectId: run.subject.id,
    status: run.status,
    model: run.caller,
    toolCalls: [run.call],
    usage: run.usage as unknown as Record<string, unknown>,
  });
  return id;
}
