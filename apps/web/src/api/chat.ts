import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FrameHandler, readChatFrames } from './chatStream';
import { deleteNoContent, eventStream, getJson, type InputProblem, patchJson, postJson, postNoContent } from './client';
import type { ModelList } from './models';
import { orgApiPath } from './queries';

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
  thread_id?: string;
  /** Drops the thread's messages from this index on before the new message (edit and resubmit). */
  truncate_thread_to_message_count?: number;
  max_steps?: number;
  strategy?: ChatStrategy;
}

export interface ChatTools {
  read_only: string[];
  read_write: string[];
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

export function chatPath(orgId: string, documentId: string): string {
  return `${orgApiPath(orgId)}/documents/${encodeURIComponent(documentId)}/chat`;
}

function chatQueryKey(orgId: string, documentId: string) {
  return ['orgs', orgId, 'chat', documentId] as const;
}

export function threadsQueryKey(orgId: string, documentId: string) {
  return [...chatQueryKey(orgId, documentId), 'threads'] as const;
}

export function threadQueryKey(orgId: string, documentId: string, threadId: string) {
  return [...chatQueryKey(orgId, documentId), 'thread', threadId] as const;
}

/** The models the agent can chat with, the default one, and what to configure when there is none. */
export function useChatModelsQuery(orgId: string) {
  return useQuery({
    queryKey: ['orgs', orgId, 'chat', 'models'],
    queryFn: () => getJson<ModelList>(`${orgApiPath(orgId)}/llm/models?chat_only=true`),
    staleTime: MODELS_STALE_MS,
  });
}

/** Your conversations about the document, latest first. */
export function useThreadsQuery(orgId: string, documentId: string) {
  return useQuery({
    queryKey: threadsQueryKey(orgId, documentId),
    queryFn: () => getJson<{ threads: ThreadSummary[] }>(`${chatPath(orgId, documentId)}/threads`),
    select: ({ threads }) => threads,
  });
}

export function fetchThread(orgId: string, documentId: string, threadId: string): Promise<Thread> {
  return getJson<Thread>(`${chatPath(orgId, documentId)}/threads/${encodeURIComponent(threadId)}`);
}

export function useCreateThreadMutation(orgId: string, documentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (title: string) =>
      (await postJson<{ thread_id: string }>(`${chatPath(orgId, documentId)}/threads`, { body: { title } })).thread_id,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: threadsQueryKey(orgId, documentId) }),
  });
}

export function useDeleteThreadMutation(orgId: string, documentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (threadId: string) => deleteNoContent(`${chatPath(orgId, documentId)}/threads/${encodeURIComponent(threadId)}`),
    onSuccess: (_result, threadId) => {
      queryClient.removeQueries({ queryKey: threadQueryKey(orgId, documentId, threadId) });
      return queryClient.invalidateQueries({ queryKey: threadsQueryKey(orgId, documentId) });
    },
  });
}

export function useRenameThreadMutation(orgId: string, documentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ threadId, title }: { threadId: string; title: string }) =>
      patchJson<ThreadSummary>(`${chatPath(orgId, documentId)}/threads/${encodeURIComponent(threadId)}`, { body: { title } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: threadsQueryKey(orgId, documentId) }),
  });
}

/** The agent's tools by access: the read_write ones are those that ask for approval. */
export function useChatToolsQuery(orgId: string, documentId: string) {
  return useQuery({
    queryKey: [...chatQueryKey(orgId, documentId), 'tools'],
    queryFn: () => getJson<ChatTools>(`${chatPath(orgId, documentId)}/tools`),
    staleTime: MODELS_STALE_MS,
  });
}

/** The problems running the tool would find in these arguments (none: they are fine). */
export async function checkToolArguments(
  orgId: string,
  documentId: string,
  tool: string,
  args: unknown,
): Promise<InputProblem[]> {
  const { problems } = await postJson<{ valid: boolean; problems: InputProblem[] }>(
    `${chatPath(orgId, documentId)}/tools/${encodeURIComponent(tool)}/check`,
    { body: { arguments: args } },
  );
  return problems;
}

/** Starts a turn and reports its frames until the stream ends. */
export async function streamChat(
  orgId: string,
  documentId: string,
  request: ChatRequest,
  signal: AbortSignal,
  onFrame: FrameHandler,
): Promise<void> {
  const body = await eventStream('POST', chatPath(orgId, documentId), { body: { ...request, stream: true }, signal });
  await readChatFrames(body, onFrame);
}

/** Continues a paused turn with the approvals (and the answer to its question), reporting its frames. */
export async function streamApprove(
  orgId: string,
  documentId: string,
  request: ApproveRequest,
  signal: AbortSignal,
  onFrame: FrameHandler,
): Promise<void> {
  const body = await eventStream('POST', `${chatPath(orgId, documentId)}/approve`, {
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
  documentId: string,
  turnId: string,
  lastEventId: string | null,
  signal: AbortSignal,
  onFrame: FrameHandler,
): Promise<void> {
  const body = await eventStream('GET', `${chatPath(orgId, documentId)}/turns/${encodeURIComponent(turnId)}/stream`, {
    headers: lastEventId === null ? {} : { 'last-event-id': lastEventId },
    signal,
  });
  await readChatFrames(body, onFrame);
}

export function stopTurn(orgId: string, documentId: string, turnId: string): Promise<void> {
  return postNoContent(`${chatPath(orgId, documentId)}/stop`, { body: { turn_id: turnId } });
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
      predicate: (query) => !(query.queryKey[2] === 'chat' && query.queryKey[4] === 'thread'),
    });
}
