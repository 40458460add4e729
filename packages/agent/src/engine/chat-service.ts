import { type EventBus, invalidInput, type OrgAccess } from '@docagent/core';
import type { Thread, ThreadStore, ThreadSummary } from '../threads/thread-store.ts';
import type { AgentEngine } from './agent-engine.ts';
import type { AgentEvent, TurnResult } from './events.ts';
import type { Mention, Subject } from './pack.ts';
import { FrameRecorder, type FrameSink, type TurnEventLog } from './turn-events.ts';
import type { StopOutcome } from './turn-inputs.ts';

export interface ChatDeps {
  engine: AgentEngine;
  threads: ThreadStore;
  events: TurnEventLog;
  /** Where `agent.action_completed` goes when a turn ends (the webhooks deliver it). */
  bus?: EventBus;
}

export interface ChatRequest {
  messages: Array<{ role: 'user' | 'assistant'; content: string }>;
  model?: string | null;
  autoApprove?: boolean;
  autoApprovedTools?: string[];
  /** Plan first: writes are refused this turn (decision.ts). */
  planMode?: boolean;
  threadId?: string;
  truncateThreadToMessageCount?: number;
  maxSteps?: number;
  /** The loop strategy; default: the thread's, else react. */
  strategy?: string;
  mentions?: Mention[];
}

export interface ApproveRequest {
  turnId: string;
  approvals: Array<{ callId: string; approved: boolean; arguments?: unknown }>;
  input?: string;
}

/** Numbers and records each frame, then hands it to the transport. */
function recorder(events: TurnEventLog, firstSeq: number, sink: FrameSink | undefined, completion?: CompletionWatch) {
  return new FrameRecorder(events, firstSeq, async (seq, event) => {
    completion?.(event);
    await sink?.(seq, event);
  });
}

type CompletionWatch = (event: AgentEvent) => void;

/**
 * Publishes `agent.action_completed` once the turn this part of it belongs to ends (done or
 * failed; a pause is not an end), with the calls this part ran and how each was decided.
 */
function completionWatch(deps: ChatDeps, access: OrgAccess, subject: Subject): CompletionWatch | undefined {
  const { bus } = deps;
  if (!bus) return undefined;
  let turn: { turnId: string; threadId: string | null } | undefined;
  const calls: Array<{ name: string; decision: string; success: boolean }> = [];
  return (event) => {
    switch (event.type) {
      case 'turn_started':
        turn = { turnId: event.turn_id, threadId: event.thread_id };
        return;
      case 'tool_result':
        calls.push({ name: event.name, decision: event.decision, success: event.success });
        return;
      case 'tool_complete':
      case 'tool_error':
        calls.push({ name: event.name, decision: event.decision, success: event.type === 'tool_complete' });
        return;
      case 'done':
      case 'error':
        if (!turn) return;
        bus.publish({
          type: 'agent.action_completed',
          orgId: access.orgId,
          subject,
          turnId: turn.turnId,
          threadId: turn.threadId,
          userId: access.userId,
          toolCalls: calls,
          success: event.type === 'done',
          at: new Date().toISOString(),
        });
    }
  };
}

/**
 * A new turn on a subject: its history is the thread's (when given) followed by the person's last
 * message, or the messages the client sent (DocRouter clients send the whole conversation).
 */
export async function startChat(
  deps: ChatDeps,
  access: OrgAccess,
  subject: Subject,
  request: ChatRequest,
  sink?: FrameSink,
  signal?: AbortSignal,
): Promise<TurnResult> {
  await deps.engine.subjects.find(deps.engine.services, access, subject);
  const last = request.messages.at(-1);
  if (last?.role !== 'user' || last.content.trim() === '') {
    throw invalidInput('messages must end with a non-empty user message.');
  }
  const { threadId } = request;
  const strategy = request.strategy ?? (threadId ? await deps.threads.strategyOf(access, subject, threadId) : undefined);
  const readThread = threadId
    ? async () => {
        const thread = await deps.threads.historyFor(access, subject, threadId, request.truncateThreadToMessageCount);
        return {
          messages: [...thread.messages, { role: 'user' as const, content: last.content }],
          workingState: thread.workingState,
          stored: { stored: thread.stored, valid: thread.messages.length },
        };
      }
    : undefined;
  return deps.engine.start(
    {
      access,
      subject,
      threadId: threadId ?? null,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
      readThread,
      model: request.model,
      maxSteps: request.maxSteps,
      strategy,
      autoApprove: request.autoApprove,
      autoApprovedTools: request.autoApprovedTools,
      planMode: request.planMode,
      mentions: request.mentions,
    },
    recorder(deps.events, 0, sink, completionWatch(deps, access, subject)),
    signal,
  );
}

/** Stops a turn; stopping a paused one writes its last frames to the turn's log for its followers. */
export async function stopChat(deps: ChatDeps, access: OrgAccess, turnId: string): Promise<StopOutcome> {
  const firstSeq = await deps.events.lastSeq(turnId);
  return deps.engine.stop(turnId, access, recorder(deps.events, firstSeq, undefined));
}

/**
 * Ends the turns whose process died (silent longer than `silentSeconds`) with an `error` frame, and
 * the questions nobody answered in time with `agent_request_input_timeout`, so their followers
 * stop waiting; removes turns past their expiry.
 */
export async function sweepTurns(
  deps: ChatDeps,
  silentSeconds: number,
): Promise<{ orphaned: number; unanswered: number; expired: number }> {
  const orphans = await deps.engine.reapOrphanedTurns(new Date(Date.now() - silentSeconds * 1000));
  for (const turn of orphans)
    await appendFrames(deps, turn.id, [{ type: 'error', error: turn.progress.error ?? 'The turn failed.' }]);
  const unanswered = await deps.engine.endUnansweredQuestions();
  for (const { turn, question, result } of unanswered) {
    await appendFrames(deps, turn.id, [
      { type: 'agent_request_input_timeout', question },
      { type: 'done', result },
    ]);
  }
  return { orphaned: orphans.length, unanswered: unanswered.length, expired: await deps.engine.sweepExpiredTurns() };
}

async function appendFrames(deps: ChatDeps, turnId: string, events: AgentEvent[]): Promise<void> {
  const last = await deps.events.lastSeq(turnId);
  await deps.events.append(
    turnId,
    events.map((event, i) => ({ seq: last + i + 1, event })),
  );
}

/** Continues a paused turn (on `subject` when the route names one) with decisions or an answer. */
export async function approveChat(
  deps: ChatDeps,
  access: OrgAccess,
  subject: Subject | undefined,
  request: ApproveRequest,
  sink?: FrameSink,
  signal?: AbortSignal,
): Promise<TurnResult> {
  const firstSeq = await deps.events.lastSeq(request.turnId);
  // A turn that cannot be read is refused by continue, with the error its callers expect.
  const turn = deps.bus ? await deps.engine.turnOf(request.turnId, access, subject).catch(() => null) : null;
  const watch = turn ? completionWatch(deps, access, turn.subject) : undefined;
  return deps.engine.continue({ access, subject, ...request }, recorder(deps.events, firstSeq, sink, watch), signal);
}

/** The frames of a turn of this user after `afterSeq`, then live until it ends. */
export async function* followChat(
  deps: ChatDeps,
  access: OrgAccess,
  subject: Subject | undefined,
  turnId: string,
  afterSeq: number,
  signal: AbortSignal,
) {
  await deps.engine.turnOf(turnId, access, subject);
  yield* deps.events.follow(turnId, afterSeq, signal);
}

/** This user's conversations about a subject (checked by its pack). */
export async function listThreads(deps: ChatDeps, access: OrgAccess, subject: Subject): Promise<ThreadSummary[]> {
  await deps.engine.subjects.find(deps.engine.services, access, subject);
  return deps.threads.list(access, subject);
}

export async function createThread(
  deps: ChatDeps,
  access: OrgAccess,
  subject: Subject,
  options: { title?: string; strategy?: string },
): Promise<Thread> {
  await deps.engine.subjects.find(deps.engine.services, access, subject);
  if (options.strategy && !deps.engine.strategyNames().includes(options.strategy)) {
    throw invalidInput(`strategy must be one of: ${deps.engine.strategyNames().join(', ')}.`);
  }
  return deps.threads.createFor(access, subject, options);
}

/** A thread of this user (on `subject` when the route names one, which its pack checks). */
export async function getThread(
  deps: ChatDeps,
  access: OrgAccess,
  subject: Subject | undefined,
  threadId: string,
): Promise<Thread> {
  if (subject) await deps.engine.subjects.find(deps.engine.services, access, subject);
  return deps.threads.get(access, subject, threadId);
}

/** Renames a thread of this user (on `subject` when the route names one, which its pack checks). */
export async function renameThread(
  deps: ChatDeps,
  access: OrgAccess,
  subject: Subject | undefined,
  threadId: string,
  title: string,
): Promise<ThreadSummary> {
  if (subject) await deps.engine.subjects.find(deps.engine.services, access, subject);
  return deps.threads.rename(access, subject, threadId, title);
}

export async function deleteThread(
  deps: ChatDeps,
  access: OrgAccess,
  subject: Subject | undefined,
  threadId: string,
): Promise<void> {
  if (subject) await deps.engine.subjects.find(deps.engine.services, access, subject);
  await deps.threads.delete(access, subject, threadId);
}
