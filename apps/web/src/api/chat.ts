import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChatSubject, chatRoutesOf } from './chatRoutes';
import { type FrameHandler, readChatFrames } from './chatStream';
import { deleteNoContent, eventStream, getJson, type InputProblem, patchJson, postJson, postNoContent } from './client';
import type { ModelList } from './models';
import { orgApiPath } from './queries';

export type { ChatSubject } from './chatRoutes';

export interface ThreadSummary {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
}

/** A part of a stored message, as the AI SDK's ModelMessage has it. */
export type MessagePart =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown }
  | {
      type: 'tool-result';
      toolCallId: string;
      toolName: string;
      output: { type: string; value: unknown };
    }
  | { type: string };

export interface StoredMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | MessagePart[];
}

export interface Thread extends ThreadSummary {
  messages: StoredMessage[];
  /** What the agent works on, in DocRouter's keys: schema_revid, prompt_revid, extraction (the values). */
  working_state: Record<string, unknown>;
}

/** A schema, prompt or tag the person pointed the agent at with @. */
export interface Mention {
  type: 'schema' | 'prompt' | 'tag';
  /** schema_revid, prompt_revid or tag id. */
  id: string;
}

/** How the agent works through a turn: `react` (tool calls as the model asks) or `roa` (Reason–Act–Observe steps). */
export type ChatStrategy = 'react' | 'roa';

export interface ChatRequest {
  messages: { role: 'user'; content: string }[];
  mentions?: Mention[];
  model?: string;
  auto_approve?: boolean;
  auto_approved_tools?: string[];
  /** Plan first: tools that change data are refused this turn; the agent answers with its plan. */
  plan_mode?: boolean;
  thread_id?: string;
  /** Drops the thread's messages from this index on before the new message (edit and resubmit). */
  truncate_thread_to_message_count?: number;
  max_steps?: number;
  strategy?: ChatStrategy;
}

export interface ChatTools {
  read_only: string[];
  read_write: string[];
  /** The writes whose applied calls can be undone. */
  undoable: string[];
}

/** What undoing a turn's last write made current again. */
export interface UndoneWrite {
  turn_id: string;
  call_id: string;
  tool: string;
  artifact: 'schema' | 'prompt' | 'note' | 'extraction_result';
  ids: Record<string, string>;
  /** The version now current (a new one with the earlier content); null for an extraction result. */
  version: number | null;
  restored_version: number | null;
  message: string;
}

/** Undoes the last write a turn applied; refused (409) when it cannot be, with why. */
export function undoLastWrite(orgId: string, turnId: string): Promise<UndoneWrite> {
  return postJson<UndoneWrite>(`${orgApiPath(orgId)}/agent/turns/${encodeURIComponent(turnId)}/undo`);
}

export interface Approval {
  call_id: string;
  approved: boolean;
  arguments?: unknown;
}

export interface ApproveRequest {
  turn_id: string;
  approvals: Approval[];
  input?: string;
  thread_id?: string;
}

/** Models change only when the server's configuration does. */
const MODELS_STALE_MS = 5 * 60_000;

function chatQueryKey(orgId: string, subject: ChatSubject) {
  return ['orgs', orgId, 'chat', subject.kind, subject.id] as const;
}

export function threadsQueryKey(orgId: string, subject: ChatSubject) {
  return [...chatQueryKey(orgId, subject), 'threads'] as const;
}

export function threadQueryKey(orgId: string, subject: ChatSubject, threadId: string) {
  return [...chatQueryKey(orgId, subject), 'thread', threadId] as const;
}

/** The models the agent can chat with, the default one, and what to configure when there is none. */
export function useChatModelsQuery(orgId: string) {
  return useQuery({
    queryKey: ['orgs', orgId, 'chat', 'models'],
    queryFn: () => getJson<ModelList>(`${orgApiPath(orgId)}/llm/models?chat_only=true`),
    staleTime: MODELS_STALE_MS,
  });
}

/** Your conversations about the subject, latest first. */
export function useThreadsQuery(orgId: string, subject: ChatSubject) {
  return useQuery({
    queryKey: threadsQueryKey(orgId, subject),
    queryFn: () => getJson<{ threads: ThreadSummary[] }>(chatRoutesOf(orgId, subject).threadList),
    select: ({ threads }) => threads,
  });
}

export function fetchThread(orgId: string, subject: ChatSubject, threadId: string): Promise<Thread> {
  return getJson<Thread>(chatRoutesOf(orgId, subject).thread(threadId));
}

export function useCreateThreadMutation(orgId: string, subject: ChatSubject) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (title: string) => {
      const routes = chatRoutesOf(orgId, subject);
      return (await postJson<{ thread_id: string }>(routes.threads, { body: routes.createThreadBody(title) })).thread_id;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: threadsQueryKey(orgId, subject) }),
  });
}

export function useDeleteThreadMutation(orgId: string, subject: ChatSubject) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (threadId: string) => deleteNoContent(chatRoutesOf(orgId, subject).thread(threadId)),
    onSuccess: (_result, threadId) => {
      queryClient.removeQueries({ queryKey: threadQueryKey(orgId, subject, threadId) });
      return queryClient.invalidateQueries({ queryKey: threadsQueryKey(orgId, subject) });
    },
  });
}

export function useRenameThreadMutation(orgId: string, subject: ChatSubject) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ threadId, title }: { threadId: string; title: string }) =>
      patchJson<ThreadSummary>(chatRoutesOf(orgId, subject).thread(threadId), { body: { title } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: threadsQueryKey(orgId, subject) }),
  });
}

/** The agent's tools by access: the read_write ones are those that ask for approval. */
export function useChatToolsQuery(orgId: string, subject: ChatSubject) {
  return useQuery({
    queryKey: [...chatQueryKey(orgId, subject), 'tools'],
    queryFn: () => getJson<ChatTools>(chatRoutesOf(orgId, subject).tools),
    staleTime: MODELS_STALE_MS,
  });
}

/**
 * The check of a tool's arguments before approval: the problems running the tool would find in
 * them (none: they are fine). Null when the subject's routes have no such check.
 */
export function toolArgumentsCheck(
  orgId: string,
  subject: ChatSubject,
): ((tool: string, args: unknown) => Promise<InputProblem[]>) | null {
  const checkPath = chatRoutesOf(orgId, subject).toolCheck;
  if (checkPath === null) return null;
  return async (tool, args) => {
    const { problems } = await postJson<{ valid: boolean; problems: InputProblem[] }>(checkPath(tool), {
      body: { arguments: args },
    });
    return problems;
  };
}

/** Starts a turn and reports its frames until the stream ends. */
export async function streamChat(
  orgId: string,
  subject: ChatSubject,
  request: ChatRequest,
  signal: AbortSignal,
  onFrame: FrameHandler,
): Promise<void> {
  const routes = chatRoutesOf(orgId, subject);
  const body = await eventStream('POST', routes.chat, { body: routes.chatBody({ ...request, stream: true }), signal });
  await readChatFrames(body, onFrame);
}

/** Continues a paused turn with the approvals (and the answer to its question), reporting its frames. */
export async function streamApprove(
  orgId: string,
  subject: ChatSubject,
  request: ApproveRequest,
  signal: AbortSignal,
  onFrame: FrameHandler,
): Promise<void> {
  const body = await eventStream('POST', chatRoutesOf(orgId, subject).approve, {
    body: { ...request, stream: true },
    signal,
  });
  await readChatFrames(body, onFrame);
}

/**
 * Follows a turn again after its stream dropped: the server replays the frames after lastEventId,
 * then the live ones until the turn ends or pauses.
 */
export async function streamTurnAgain(
  orgId: string,
  subject: ChatSubject,
  turnId: string,
  lastEventId: string | null,
  signal: AbortSignal,
  onFrame: FrameHandler,
): Promise<void> {
  const body = await eventStream('GET', chatRoutesOf(orgId, subject).turnStream(turnId), {
    headers: lastEventId === null ? {} : { 'last-event-id': lastEventId },
    signal,
  });
  await readChatFrames(body, onFrame);
}

export function stopTurn(orgId: string, subject: ChatSubject, turnId: string): Promise<void> {
  return postNoContent(chatRoutesOf(orgId, subject).stop, { body: { turn_id: turnId } });
}

/**
 * After a turn the agent's tools may have changed anything of the organization: the document,
 * its results, schemas, prompts, tags. Everything is re-read except the conversation itself,
 * which the page already shows as it streamed.
 */
export function useRefreshAfterTurn(orgId: string): () => Promise<void> {
  const queryClient = useQueryClient();
  return () =>
    queryClient.invalidateQueries({
      queryKey: ['orgs', orgId],
      predicate: (query) => !(query.queryKey[2] === 'chat' && query.queryKey[5] === 'thread'),
    });
}
