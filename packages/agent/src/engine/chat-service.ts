import { getDocument, invalidInput, type OrgAccess } from '@docagent/core';
import type { ThreadStore } from '../threads/thread-store.ts';
import type { AgentEngine, StopOutcome } from './agent-engine.ts';
import type { AgentEvent, TurnResult } from './events.ts';
import type { Mention } from './mentions.ts';
import type { FrameWriter, TurnEventLog } from './turn-events.ts';

export interface ChatDeps {
  engine: AgentEngine;
  threads: ThreadStore;
  events: TurnEventLog;
}

/** Receives each frame with its sequence number within the turn (the SSE `id:`). */
export type FrameSink = (seq: number, event: AgentEvent) => void | Promise<void>;

export interface ChatRequest {
  messages: Array<{ role: 'user' | 'assistant'; content: string }>;
  model?: string | null;
  autoApprove?: boolean;
  autoApprovedTools?: string[];
  threadId?: string;
  truncateThreadToMessageCount?: number;
  maxSteps?: number;
  mentions?: Mention[];
}

export interface ApproveRequest {
  turnId: string;
  approvals: Array<{ callId: string; approved: boolean; arguments?: unknown }>;
  input?: string;
}

/** Numbers and records each frame, then hands it to the transport. */
function recorder(events: TurnEventLog, firstSeq: number, sink: FrameSink | undefined) {
  let seq = firstSeq;
  let log: FrameWriter | undefined;
  return async (event: AgentEvent) => {
    if (event.type === 'turn_started') log = events.writer(event.turn_id);
    seq += 1;
    await log?.write(seq, event);
    await sink?.(seq, event);
  };
}

/**
 * A new turn on a document: its history is the thread's (when given) followed by the person's
 * last message, or the messages the client sent (DocRouter clients send the whole conversation).
 */
export async function startChat(
  deps: ChatDeps,
  access: OrgAccess,
  documentId: string,
  request: ChatRequest,
  sink?: FrameSink,
  signal?: AbortSignal,
): Promise<TurnResult> {
  await getDocument(deps.engine.services.db, access.orgId, documentId);
  const last = request.messages.at(-1);
  if (last?.role !== 'user' || last.content.trim() === '') {
    throw invalidInput('messages must end with a non-empty user message.');
  }
  const { threadId } = request;
  const readThread = threadId
    ? async () => {
        const thread = await deps.threads.historyFor(access, documentId, threadId, request.truncateThreadToMessageCount);
        return {
          messages: [...thread.messages, { role: 'user' as const, content: last.content }],
          workingState: thread.workingState,
        };
      }
    : undefined;
  return deps.engine.start(
    {
      access,
      documentId,
      threadId: threadId ?? null,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      readThread,
      model: request.model,
      maxSteps: request.maxSteps,
      autoApprove: request.autoApprove,
      autoApprovedTools: request.autoApprovedTools,
      mentions: request.mentions,
    },
    recorder(deps.events, 0, sink),
    signal,
  );
}

/** Stops a turn; stopping a paused one writes its last frames to the turn's log for its followers. */
export async function stopChat(deps: ChatDeps, access: OrgAccess, turnId: string): Promise<StopOutcome> {
  const firstSeq = await deps.events.lastSeq(turnId);
  return deps.engine.stop(turnId, access, recorder(deps.events, firstSeq, undefined));
}

/**
 * Ends the turns whose process died (silent longer than `silentSeconds`) with an `error` frame, so
 * their followers stop waiting, and removes turns past their expiry.
 */
export async function sweepTurns(deps: ChatDeps, silentSeconds: number): Promise<{ orphaned: number; expired: number }> {
  const orphans = await deps.engine.reapOrphanedTurns(new Date(Date.now() - silentSeconds * 1000));
  for (const turn of orphans) {
    const seq = (await deps.events.lastSeq(turn.id)) + 1;
    await deps.events.append(turn.id, [{ seq, event: { type: 'error', error: turn.progress.error ?? 'The turn failed.' } }]);
  }
  return { orphaned: orphans.length, expired: await deps.engine.sweepExpiredTurns() };
}

export async function approveChat(
  deps: ChatDeps,
  access: OrgAccess,
  documentId: string,
  request: ApproveRequest,
  sink?: FrameSink,
  signal?: AbortSignal,
): Promise<TurnResult> {
  const firstSeq = await deps.events.lastSeq(request.turnId);
  return deps.engine.continue({ access, documentId, ...request }, recorder(deps.events, firstSeq, sink), signal);
}
