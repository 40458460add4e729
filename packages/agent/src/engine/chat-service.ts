import { getDocument, invalidInput, type OrgAccess } from '@docagent/core';
import type { ModelMessage } from 'ai';
import type { ThreadStore } from '../threads/thread-store.ts';
import type { AgentEngine } from './agent-engine.ts';
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
  let history: ModelMessage[] = request.messages.map((m) => ({ role: m.role, content: m.content }));
  let workingState = {};
  if (request.threadId) {
    const thread = await deps.threads.historyFor(access, documentId, request.threadId, request.truncateThreadToMessageCount);
    history = [...thread.messages, { role: 'user', content: last.content }];
    workingState = thread.workingState;
  }
  return deps.engine.start(
    {
      access,
      documentId,
      threadId: request.threadId ?? null,
      messages: history,
      model: request.model,
      maxSteps: request.maxSteps,
      autoApprove: request.autoApprove,
      autoApprovedTools: request.autoApprovedTools,
      workingState,
      mentions: request.mentions,
    },
    recorder(deps.events, 0, sink),
    signal,
  );
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
