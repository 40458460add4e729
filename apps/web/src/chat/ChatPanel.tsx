import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  checkToolArguments,
  fetchThread,
  type ThreadSummary,
  threadQueryKey,
  useChatModelsQuery,
  useChatToolsQuery,
  useCreateThreadMutation,
  useDeleteThreadMutation,
  useThreadsQuery,
} from '../api/chat';
import type { DocumentSummary } from '../api/types';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { AutoCreateReview } from './AutoCreateReview';
import { ChatSettingsPanel } from './ChatSettingsPanel';
import type { ChatItem } from './chatItems';
import { ExtractionSection } from './ExtractionSection';
import { extractionOfWorkingState } from './extraction';
import { itemsOfHistory, withMessageIndexes } from './historyItems';
import { InputRequestCard } from './InputRequestCard';
import { MentionInput } from './MentionInput';
import { MessageList } from './MessageList';
import { ModelPicker } from './ModelPicker';
import { type MentionChoice, mentionsInText } from './mentions';
import { PendingBar } from './PendingBar';
import { StepCounter } from './StepCounter';
import { ThreadPicker } from './ThreadPicker';
import { approvalFields, useChatSettings } from './useChatSettings';
import { type SendOptions, useChatTurns } from './useChatTurns';
import { usePauseDecisions } from './usePauseDecisions';
import { useTitleFlash } from './useTitleFlash';

/** Thread titles are the first words of the first message. */
const TITLE_LENGTH = 80;

function titleOf(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}

interface ChatPanelProps {
  orgId: string;
  document: DocumentSummary;
}

/**
 * The document agent: conversations about the document, with approvals of what it wants to change,
 * and the review of what auto-create proposed for it.
 */
export function ChatPanel({ orgId, document }: ChatPanelProps) {
  const documentId = document.id;
  const queryClient = useQueryClient();
  const modelsQuery = useChatModelsQuery(orgId);
  const toolsQuery = useChatToolsQuery(orgId, documentId);
  const threadsQuery = useThreadsQuery(orgId, documentId);
  const createThread = useCreateThreadMutation(orgId, documentId);
  const deleteThread = useDeleteThreadMutation(orgId, documentId);
  const chat = useChatTurns(orgId, documentId);
  const { settings, update: updateSettings, alwaysApprove } = useChatSettings();
  const [threadId, setThreadId] = useState<string | null>(null);
  const [loadingThread, setLoadingThread] = useState(false);
  const [threadError, setThreadError] = useState<unknown>(null);
  const [message, setMessage] = useState('');
  const [chosen, setChosen] = useState<MentionChoice[]>([]);
  const { decisions, clearDecisions, decide, decideAll, submitAnswer, undecided } = usePauseDecisions(chat, alwaysApprove);

  const models = modelsQuery.data?.models ?? [];
  const hint = modelsQuery.data?.configure_hint ?? null;
  const chosenModel =
    settings.model !== null && models.includes(settings.model) ? settings.model : (modelsQuery.data?.default_model ?? models[0]);
  const running = chat.phase === 'running';
  const paused = chat.phase === 'paused';
  const busy = running || createThread.isPending || loadingThread;

  useTitleFlash(chat.inputRequest !== null, '❓ Question from the agent');

  function loadThread(id: string) {
    return queryClient.fetchQuery({
      queryKey: threadQueryKey(orgId, documentId, id),
      queryFn: () => fetchThread(orgId, documentId, id),
      staleTime: 0,
    });
  }

  async function pickThread(next: string | null) {
    setThreadId(next);
    setThreadError(null);
    clearDecisions();
    if (next === null) {
      chat.reset([]);
      return;
    }
    setLoadingThread(true);
    try {
      const thread = await loadThread(next);
      chat.reset(itemsOfHistory(thread.messages), extractionOfWorkingState(thread.working_state));
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

  /** After a turn, the messages on screen learn where they are in the stored thread (for edits). */
  async function indexMessages(thread: string) {
    try {
      const stored = await loadThread(thread);
      chat.setItems((current) => withMessageIndexes(current, stored.messages));
    } catch {
      // Without the indexes, the messages of this turn cannot be edited; nothing else is lost.
    }
  }

  function optionsFor(thread: string, text: string): SendOptions {
    const mentions = mentionsInText(text, chosen);
    return {
      threadId: thread,
      model: chosenModel,
      max_steps: settings.maxSteps,
      strategy: settings.strategy,
      ...approvalFields(settings),
      ...(mentions.length > 0 ? { mentions } : {}),
    };
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
    const options = optionsFor(thread, text);
    setMessage('');
    setChosen([]);
    await chat.send(text, options);
    await indexMessages(thread);
  }

  async function resubmit(item: Extract<ChatItem, { kind: 'user' }>, text: string) {
    if (threadId === null || item.messageIndex === undefined || busy || paused) return;
    await chat.send(text, optionsFor(threadId, text), { itemKey: item.key, messageIndex: item.messageIndex });
    await indexMessages(threadId);
  }

  /**
   * Sends the failed message again; a stored copy of it (a turn that failed after finishing a
   * step keeps it) is replaced, not repeated, even when the indexes of the last turn are not in yet.
   */
  async function retry() {
    let items = chat.items;
    const unindexed = items.findLast((item) => item.kind === 'user');
    if (threadId !== null && unindexed?.kind === 'user' && unindexed.messageIndex === undefined) {
      items = await loadThread(threadId)
        .then((thread) => withMessageIndexes(items, thread.messages))
        .catch(() => items);
    }
    const last = items.findLast((item) => item.kind === 'user');
    const stored = last?.kind === 'user' && last.messageIndex !== undefined ? last : undefined;
    await chat.retry(stored && { itemKey: stored.key, messageIndex: stored.messageIndex as number });
    if (threadId !== null) await indexMessages(threadId);
  }

  return (
    // Fills the panel: the conversation takes the height left between the settings above and the message box below.
    <section aria-label="Chat" className="flex h-full min-h-[30rem] flex-col gap-3">
      <div className="shrink-0 space-y-3">
        <AutoCreateReview
          orgId={orgId}
          document={document}
          disabled={busy || paused}
          // The refine thread opens like a picked one: its messages, and the proposal as its extraction.
          onRefine={(id) => void pickThread(id)}
        />
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

        <ChatSettingsPanel
          settings={settings}
          onChange={updateSettings}
          readWriteTools={toolsQuery.data?.read_write ?? []}
          disabled={running}
        />
        <ExtractionSection extraction={chat.extraction} />
      </div>

      {loadingThread ? (
        <div className="min-h-48 flex-1">
          <LoadingState label="Loading the conversation…" />
        </div>
      ) : (
        <MessageList
          orgId={orgId}
          items={chat.items}
          decisions={decisions}
          onDecide={decide}
          onValidate={(tool, args) => checkToolArguments(orgId, documentId, tool, args)}
          busy={running}
          streaming={running}
          onResubmit={busy || paused ? undefined : (item, text) => void resubmit(item, text)}
          onRetry={busy || paused ? undefined : () => void retry()}
        />
      )}

      <div className="shrink-0 space-y-3">
        {paused && chat.pending.length > 0 && undecided > 0 && (
          <PendingBar
            count={chat.pending.length}
            undecided={undecided}
            onApproveAll={() => decideAll(true)}
            onRejectAll={() => decideAll(false)}
          />
        )}

        {chat.inputRequest && (
          // A new question is a new card: its answer box starts empty and takes the focus.
          <InputRequestCard key={chat.inputRequest.callId} question={chat.inputRequest.question} onAnswer={submitAnswer} />
        )}

        {chat.error !== null && <ErrorAlert title="Could not start the conversation" error={chat.error} />}

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
          <MentionInput
            orgId={orgId}
            value={message}
            onChange={setMessage}
            chosen={chosen}
            onChoose={(choice) => setChosen((current) => [...current, choice])}
            onSubmit={() => void send()}
            onEscape={() => {
              if (running && !chat.stopping) void chat.stop();
            }}
            placeholder={
              paused ? 'Answer the agent above to go on.' : 'Ask the agent… (@ mentions, Enter sends, Shift+Enter for a new line)'
            }
          />
          <div className="flex flex-wrap items-center gap-3">
            <ModelPicker models={models} value={chosenModel} disabled={running} onChange={(model) => updateSettings({ model })} />
            <span className="text-xs text-slate-500">
              {settings.approvalMode === 'all'
                ? 'Auto-approves every action'
                : settings.approvalMode === 'tools'
                  ? `Auto-approves ${settings.autoApprovedTools.length} tools`
                  : 'Asks before every change'}
            </span>
            <div className="ml-auto flex items-center gap-2">
              {running && chat.progress && <StepCounter progress={chat.progress} />}
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
      </div>
    </section>
  );
}
