import { useQueryClient } from '@tanstack/react-query';
import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import {
  type Approval,
  fetchThread,
  type ThreadSummary,
  threadQueryKey,
  useChatModelsQuery,
  useCreateThreadMutation,
  useDeleteThreadMutation,
  useThreadsQuery,
} from '../api/chat';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { itemsOfHistory } from './chatItems';
import { MessageList } from './MessageList';
import { ThreadPicker } from './ThreadPicker';
import type { Decision } from './ToolCallCard';
import { useChatTurns } from './useChatTurns';

/** Thread titles are the first words of the first message. */
const TITLE_LENGTH = 80;

function titleOf(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}

interface ChatPanelProps {
  orgId: string;
  documentId: string;
}

/** The document agent: conversations about the document, with approvals of what it wants to change. */
export function ChatPanel({ orgId, documentId }: ChatPanelProps) {
  const queryClient = useQueryClient();
  const modelsQuery = useChatModelsQuery(orgId);
  const threadsQuery = useThreadsQuery(orgId, documentId);
  const createThread = useCreateThreadMutation(orgId, documentId);
  const deleteThread = useDeleteThreadMutation(orgId, documentId);
  const chat = useChatTurns(orgId, documentId);
  const [threadId, setThreadId] = useState<string | null>(null);
  const [loadingThread, setLoadingThread] = useState(false);
  const [threadError, setThreadError] = useState<unknown>(null);
  const [message, setMessage] = useState('');
  const [model, setModel] = useState<string | null>(null);
  const [autoApprove, setAutoApprove] = useState(false);
  const [decisions, setDecisions] = useState<Record<string, Decision>>({});
  const [answer, setAnswer] = useState('');
  const messageId = useId();
  const modelId = useId();
  const answerId = useId();

  const models = modelsQuery.data?.models ?? [];
  const hint = modelsQuery.data?.configure_hint ?? null;
  const chosenModel = model ?? modelsQuery.data?.default_model ?? models[0];
  const running = chat.phase === 'running';
  const paused = chat.phase === 'paused';
  const busy = running || createThread.isPending || loadingThread;

  // A new pause starts with no decisions.
  useEffect(() => {
    if (chat.pending.length > 0 || chat.inputRequest) {
      setDecisions({});
      setAnswer('');
    }
  }, [chat.pending, chat.inputRequest]);

  async function pickThread(next: string | null) {
    setThreadId(next);
    setThreadError(null);
    setDecisions({});
    if (next === null) {
      chat.reset([]);
      return;
    }
    setLoadingThread(true);
    try {
      const thread = await queryClient.fetchQuery({
        queryKey: threadQueryKey(orgId, documentId, next),
        queryFn: () => fetchThread(orgId, documentId, next),
        staleTime: 0,
      });
      chat.reset(itemsOfHistory(thread.messages));
    } catch (error) {
      chat.reset([]);
      setThreadError(error);
    } finally {
      setLoadingThread(false);
    }
  }

  function removeThread(thread: ThreadSummary) {
    if (!window.confirm(`Delete the conversation “${thread.title}”?`)) return;
    deleteThread.mutate(thread.id, {
      onSuccess: () => {
        if (threadId === thread.id) {
          setThreadId(null);
          chat.reset([]);
        }
      },
    });
  }

  async function send() {
    const text = message.trim();
    if (text === '' || busy || paused || !chosenModel) return;
    let thread = threadId;
    if (thread === null) {
      try {
        thread = await createThread.mutateAsync(titleOf(text));
      } catch (error) {
        chat.setError(error);
        return;
      }
      setThreadId(thread);
    }
    setMessage('');
    await chat.send(text, { threadId: thread, model: chosenModel, autoApprove });
    void queryClient.invalidateQueries({ queryKey: threadQueryKey(orgId, documentId, thread) });
  }

  function onMessageKey(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  }

  /** Sends the decisions once every pending call has one and any question is answered. */
  function resumeIfReady(all: Record<string, Decision>, input: string | undefined) {
    if (!chat.pending.every((call) => all[call.id] !== undefined)) return;
    if (chat.inputRequest && input === undefined) return;
    const approvals: Approval[] = chat.pending.map((call) => {
      const decision = all[call.id] as Decision;
      return decision.arguments === undefined
        ? { call_id: call.id, approved: decision.approved }
        : { call_id: call.id, approved: decision.approved, arguments: decision.arguments };
    });
    void chat.resume(approvals, input);
  }

  function decide(callId: string, decision: Decision) {
    const next = { ...decisions, [callId]: decision };
    setDecisions(next);
    resumeIfReady(next, undefined);
  }

  function approveAll() {
    const next = { ...decisions };
    for (const call of chat.pending) {
      next[call.id] ??= { approved: true };
    }
    setDecisions(next);
    resumeIfReady(next, undefined);
  }

  function submitAnswer() {
    const text = answer.trim();
    if (text === '') return;
    // Calls still undecided when the question is answered are rejected.
    const next = { ...decisions };
    for (const call of chat.pending) {
      next[call.id] ??= { approved: false };
    }
    setDecisions(next);
    resumeIfReady(next, text);
  }

  const undecided = chat.pending.filter((call) => decisions[call.id] === undefined).length;

  return (
    <section aria-labelledby="chat-heading" className="space-y-3">
      <h2 id="chat-heading" className="text-lg font-semibold text-slate-900">
        Chat
      </h2>
      {threadsQuery.isError && (
        <ErrorAlert
          title="Could not load the conversations"
          error={threadsQuery.error}
          onRetry={() => void threadsQuery.refetch()}
        />
      )}
      <ThreadPicker
        threads={threadsQuery.data ?? []}
        threadId={threadId}
        disabled={busy}
        deleting={deleteThread.isPending}
        onPick={(next) => void pickThread(next)}
        onDelete={removeThread}
      />
      {deleteThread.isError && <ErrorAlert title="Could not delete the conversation" error={deleteThread.error} />}
      {threadError !== null && <ErrorAlert title="Could not load the conversation" error={threadError} />}

      {loadingThread ? (
        <LoadingState label="Loading the conversation…" />
      ) : (
        <MessageList items={chat.items} decisions={decisions} onDecide={decide} busy={running} streaming={running} />
      )}

      {paused && chat.pending.length > 1 && undecided > 0 && (
        <div className="flex items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <span>The agent waits for your approval of {chat.pending.length} actions.</span>
          <Button onClick={approveAll}>Approve all</Button>
        </div>
      )}
      {paused && chat.pending.length === 1 && undecided === 1 && (
        <p className="text-sm text-amber-900">The agent waits for your approval of the action above.</p>
      )}

      {chat.inputRequest && (
        <form
          aria-label="Question from the agent"
          className="space-y-2 rounded-md border border-sky-300 bg-sky-50 px-3 py-2"
          onSubmit={(event) => {
            event.preventDefault();
            submitAnswer();
          }}
        >
          <label htmlFor={answerId} className="block text-sm font-medium whitespace-pre-wrap text-sky-950">
            {chat.inputRequest.question}
          </label>
          <textarea
            id={answerId}
            value={answer}
            rows={2}
            onChange={(event) => setAnswer(event.target.value)}
            className="block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none"
          />
          <Button type="submit" disabled={answer.trim() === ''}>
            Send answer
          </Button>
        </form>
      )}

      {chat.error !== null && <ErrorAlert title="The agent could not answer" error={chat.error} />}

      {hint !== null && (
        <div role="status" className="rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p className="font-medium">No chat model is configured: {hint}</p>
        </div>
      )}
      {modelsQuery.isError && (
        <ErrorAlert title="Could not load the models" error={modelsQuery.error} onRetry={() => void modelsQuery.refetch()} />
      )}

      <form
        aria-label="Message the agent"
        className="space-y-2"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <label htmlFor={messageId} className="sr-only">
          Message
        </label>
        <textarea
          id={messageId}
          value={message}
          rows={3}
          placeholder={paused ? 'Answer the agent above to go on.' : 'Ask the agent… (Enter sends, Shift+Enter for a new line)'}
          onChange={(event) => setMessage(event.target.value)}
          onKeyDown={onMessageKey}
          className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none"
        />
        <div className="flex flex-wrap items-center gap-3">
          <div className="flex items-center gap-2">
            <label htmlFor={modelId} className="text-xs font-medium text-slate-700">
              Model
            </label>
            <select
              id={modelId}
              value={chosenModel ?? ''}
              disabled={models.length === 0 || running}
              onChange={(event) => setModel(event.target.value)}
              className="rounded-md border border-slate-300 bg-white py-1 pr-7 pl-2 font-mono text-xs text-slate-900 focus:border-slate-500 focus:ring-2 focus:ring-slate-200 focus:outline-none disabled:bg-slate-50"
            >
              {models.length === 0 && <option value="">No model</option>}
              {models.map((candidate) => (
                <option key={candidate} value={candidate}>
                  {candidate}
                </option>
              ))}
            </select>
          </div>
          <label className="flex items-center gap-1.5 text-xs font-medium text-slate-700">
            <input
              type="checkbox"
              checked={autoApprove}
              disabled={running}
              onChange={(event) => setAutoApprove(event.target.checked)}
              className="size-4 rounded border-slate-300"
            />
            Auto-approve
          </label>
          <div className="ml-auto flex gap-2">
            {running && (
              <Button variant="danger" disabled={chat.stopping} onClick={() => void chat.stop()}>
                {chat.stopping ? 'Stopping…' : 'Stop'}
              </Button>
            )}
            <Button
              type="submit"
              disabled={busy || paused || message.trim() === '' || !chosenModel}
              aria-busy={running || undefined}
            >
              {running ? 'Working…' : 'Send'}
            </Button>
          </div>
        </div>
      </form>
    </section>
  );
}
