import { type Db, forbidden, newId, notFound, type OrgAccess, pageOfTable, tables } from '@docagent/core';
import { and, desc, eq, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
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

/** A run record's columns as a turn's commit writes them: the JSON ones as JSON text. */
export interface RunRecordValues {
  turnId: string;
  orgId: string;
  userId: string | null;
  subjectKind: string;
  subjectId: string;
  status: string;
  model: string;
  toolCalls: string;
  usage: string;
}

export function runRecordValues(turn: Turn, calls: AuditedCall[]): RunRecordValues {
  return {
    turnId: turn.id,
    orgId: turn.orgId,
    userId: turn.userId,
    subjectKind: turn.subject.kind,
    subjectId: turn.subject.id,
    status: turn.status,
    model: turn.settings.model,
    toolCalls: JSON.stringify(calls),
    usage: JSON.stringify(turn.progress.usage),
  };
}

/**
 * Appends a step's audited calls to the turn's run record and brings its status and usage up to
 * date; the turn's first commit writes the record (it outlives the turn row). Opening a turn
 * writes no record of its own: that saved a transaction (three round trips) on every turn. `v`
 * holds the values, or a prepared statement's placeholders for them (a step's commit).
 */
export function runRecordUpsertOf(v: { [K in keyof RunRecordValues]: SQLWrapper | RunRecordValues[K] }): SQL {
  return sql`insert into ${agentRunRecords} (id, turn_id, org_id, user_id, subject_kind, subject_id, status, model, tool_calls, usage)
    values (${v.turnId}, ${v.turnId}, ${v.orgId}, ${v.userId}, ${v.subjectKind}, ${v.subjectId}, ${v.status}, ${v.model},
      ${v.toolCalls}::jsonb, ${v.usage}::jsonb)
    on conflict (id) do update set status = excluded.status, model = excluded.model,
      tool_calls = ${agentRunRecords}.tool_calls || excluded.tool_calls, usage = excluded.usage, updated_at = now()`;
}

export async function appendRunRecord(db: Db, turn: Turn, calls: AuditedCall[]): Promise<void> {
  await db.execute(runRecordUpsertOf(runRecordValues(turn, calls)));
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
