import { type DataRunRecord, getDataRun, isDomainError, type OrgAccess } from '@docagent/core';
import { type ChatDeps, createThread, startChat } from '../../engine/chat-service.ts';
import type { Subject } from '../../engine/pack.ts';
import type { ToolRegistry } from '../../tools/tool.ts';
import { type DatasetChatBody, runFields } from './chat-body.ts';
import { type DatasetChatEvent, type DatasetChatSink, seedEventsOf } from './chat-events.ts';
import { fastQueryOf, runFastPath } from './fast-path.ts';
import type { DataWorkingState } from './shared.ts';

export type { DatasetChatBody } from './chat-body.ts';
export type { DatasetChatEvent, DatasetChatSink } from './chat-events.ts';

/** Seed 004's chat on a dataset: one message, on a thread of the engine (a new one when none is named). */
export interface DatasetChatRequest {
  message: string;
  threadId?: string;
  /** The loop strategy; default: the thread's, else react. */
  strategy?: string;
  model?: string | null;
}

/** Sends events in order, and remembers whether any went out and whether one was an error. */
function eventSender(sink: DatasetChatSink | undefined) {
  const state = { sent: false, failed: false };
  const send = async (event: DatasetChatEvent) => {
    state.sent = true;
    if (event.event === 'error') state.failed = true;
    await sink?.(event);
  };
  return { send, state };
}

const titleOf = (message: string) => message.trim().split('\n')[0]?.slice(0, 80) || 'New conversation';

/**
 * One message on a dataset, answered by the engine's turn with the data pack (or by the fast
 * path, for `SQL:` and `PYTHON:`), as seed 004's body; `sink` gets seed 004's stream events. The
 * run behind the answer is the last one the turn's tools made. An error after the first event
 * goes out as an `error` event too (before it, the caller answers it as it likes), then is thrown.
 */
export async function chatOnDataset(
  deps: ChatDeps,
  access: OrgAccess,
  datasetId: string,
  request: DatasetChatRequest,
  sink?: DatasetChatSink,
): Promise<DatasetChatBody> {
  const subject: Subject = { kind: 'dataset', id: datasetId };
  await deps.engine.subjects.find(deps.engine.services, access, subject);
  const fast = fastQueryOf(request.message);
  const { send, state } = eventSender(sink);
  try {
    const thread = request.threadId
      ? await deps.threads.get(access, subject, request.threadId)
      : await createThread(deps, access, subject, { title: titleOf(request.message), strategy: request.strategy });
    const body = fast
      ? await runFastPath(deps, access, subject, thread.id, request.message, fast, send)
      : await runAgentTurn(deps, access, subject, thread, request, send);
    await send({ event: 'result', data: body });
    await send({ event: 'done', data: { run_id: body.run_id, thread_id: body.thread_id, turn_id: body.turn_id } });
    return body;
  } catch (error) {
    if (state.sent && !state.failed) {
      const message = isDomainError(error)
        ? error.message
        : `The chat failed: ${(error as Error).message}. Send the message again.`;
      await send({ event: 'error', data: { message } });
    }
    throw error;
  }
}

async function runAgentTurn(
  deps: ChatDeps,
  access: OrgAccess,
  subject: Subject,
  thread: { id: string; workingState: DataWorkingState },
  request: DatasetChatRequest,
  send: DatasetChatSink,
): Promise<DatasetChatBody> {
  let turnId: string | null = null;
  const result = await startChat(
    deps,
    access,
    subject,
    {
      messages: [{ role: 'user', content: request.message }],
      threadId: thread.id,
      strategy: request.strategy,
      model: request.model,
    },
    async (_seq, frame) => {
      if (frame.type === 'turn_started') turnId = frame.turn_id;
      for (const event of seedEventsOf(frame)) await send(event);
    },
  );
  // The tools note each run in the working state; one the thread knew before is not this turn's.
  const last = (result.working_state as DataWorkingState).last_run_id;
  const run: DataRunRecord | null =
    last !== undefined && last !== thread.workingState.last_run_id
      ? await getDataRun(deps.engine.services.db, access.orgId, last)
      : null;
  return {
    assistant_message: result.text,
    thread_id: thread.id,
    turn_id: turnId,
    ...runFields(run),
    ...(result.input_request ? { status: 'needs_input' as const, input_request: result.input_request } : {}),
    ...(result.stopped ? { stopped: result.stopped } : {}),
  };
}

/** The tools of a chat on the dataset by access, and those this server cannot run, with why. */
export async function datasetChatTools(
  deps: ChatDeps,
  access: OrgAccess,
  datasetId: string,
): Promise<ReturnType<ToolRegistry['byAccess']> & { unavailable: Record<string, string> }> {
  const { subjects, services } = deps.engine;
  await subjects.find(services, access, { kind: 'dataset', id: datasetId });
  const python = (await services.data?.python.unavailableReason()) ?? null;
  return { ...subjects.toolsOf('dataset').byAccess(), unavailable: python === null ? {} : { execute_python: python } };
}
