import { useCallback, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { type ChatSubject, toolArgumentsCheck, useChatModelsQuery, useChatToolsQuery } from '../api/chat';
import type { DocumentSummary } from '../api/types';
import { Button } from '../components/Button';
import { ErrorAlert } from '../components/ErrorAlert';
import { LoadingState } from '../components/LoadingState';
import { orgPath } from '../layout/orgPaths';
import { AutoCreateLogView } from './AutoCreateLogView';
import { AutoCreateReview } from './AutoCreateReview';
import { ChatComposer } from './ChatComposer';
import { ChatControls } from './ChatControls';
import { ChatSettingsPanel } from './ChatSettingsPanel';
import { PlusIcon } from './ControlIcons';
import type { ChatItem } from './chatItems';
import { ExtractionDrawer, ExtractionToggle } from './ExtractionSection';
import { withMessageIndexes } from './historyItems';
import { InputRequestCard } from './InputRequestCard';
import { MessageList } from './MessageList';
import { type MentionChoice, mentionsInText } from './mentions';
import { PendingApproval } from './PendingApproval';
import { CARRY_OUT_PLAN, PlanReadyBar } from './PlanReadyBar';
import { ThreadPicker } from './ThreadPicker';
import { undoTargets } from './undoTargets';
import { useAlwaysApprove } from './useAlwaysApprove';
import { approvalFields, useChatSettings } from './useChatSettings';
import { useChatThreads } from './useChatThreads';
import { type SendOptions, useChatTurns } from './useChatTurns';
import { usePauseDecisions } from './usePauseDecisions';
import { useTitleFlash } from './useTitleFlash';
import { useUndoWrite } from './useUndoWrite';

/** Thread titles are the first words of the first message. */
const TITLE_LENGTH = 80;

function titleOf(text: string): string {
  const line = text.trim().replace(/\s+/g, ' ');
  return line.length > TITLE_LENGTH ? `${line.slice(0, TITLE_LENGTH - 1)}…` : line;
}

interface ChatPanelProps {
  orgId: string;
  subject: ChatSubject;
  /** The subject's document, when it is one: the extraction it works on and the review of auto-create are a document's only. */
  document?: DocumentSummary;
  /** Where the page wants the panel's row of controls (its header); null: above the conversation. */
  controlsSlot?: HTMLElement | null;
  /** What the empty conversation suggests asking; a document's suggestions unless given. */
  emptyText?: string;
}

/**
 * The agent on a subject (a document, a dataset): conversations about it, with approvals of what it
 * wants to change, and for a document the review of what auto-create proposed for it. Laid out to
 * fill its panel: one row of compact controls, the conversation in all the height left, and whatever
 * waits for the person (an approval, a question, a notice) pinned right above the message box,
 * which stays in view.
 */
export function ChatPanel({ orgId, subject, document, controlsSlot = null, emptyText }: ChatPanelProps) {
  const modelsQuery = useChatModelsQuery(orgId);
  const toolsQuery = useChatToolsQuery(orgId, subject);
  const chat = useChatTurns(orgId, subject);
  const checkArguments = toolArgumentsCheck(orgId, subject);
  const { settings, update: updateSettings } = useChatSettings();
  const alwaysApprove = useAlwaysApprove(orgId);
  const [message, setMessage] = useState('');
  const [chosen, setChosen] = useState<MentionChoice[]>([]);
  const [logShown, setLogShown] = useState(false);
  /** The last turn planned first and answered: its plan waits to be carried out. */
  const [planReady, setPlanReady] = useState(false);
  const [extractionShown, setExtractionShown] = useState(false);
  const extractionId = useId();
  const { decisions, clearDecisions, decide, decideAll, submitAnswer, ruleError } = usePauseDecisions(chat, alwaysApprove);
  const threads = useChatThreads(orgId, subject, chat, clearDecisions);
  // The pending cards' own Approve (with arguments edited there), for the pinned approval to use.
  const approvers = useRef(new Map<string, () => void>());
  const registerApprove = useCallback((callId: string, approve: () => void) => {
    approvers.current.set(callId, approve);
    return () => {
      if (approvers.current.get(callId) === approve) approvers.current.delete(callId);
    };
  }, []);

  const models = modelsQuery.data?.models ?? [];
  const hint = modelsQuery.data?.configure_hint ?? null;
  const chosenModel =
    settings.model !== null && models.includes(settings.model) ? settings.model : (modelsQuery.data?.default_model ?? models[0]);
  const running = chat.phase === 'running';
  const paused = chat.phase === 'paused';
  const busy = running || threads.creating || threads.loading;
  const threadId = threads.threadId;
  const undo = useUndoWrite(orgId, chat.markUndone);
  // A turn's last write stays its last once the turn has ended: Undo is offered only then.
  const undoable =
    chat.phase === 'idle'
      ? undoTargets(chat.items, toolsQuery.data?.read_write ?? [], toolsQuery.data?.undoable ?? [])
      : undefined;

  useTitleFlash(chat.inputRequest !== null, '❓ Question from the agent');

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

  /** Sends the message box's text, or `planned`'s: the approval of the plan the last turn answered with. */
  async function send(planned?: string) {
    const text = planned ?? message.trim();
    if (text === '' || busy || paused || !chosenModel) return;
    let thread: string;
    try {
      thread = await threads.threadFor(titleOf(text));
    } catch (error) {
      chat.setError(error);
      return;
    }
    // Carrying out a plan is a turn that may change things, whatever the setting.
    const options = { ...optionsFor(thread, text), ...(planned === undefined ? {} : { plan_mode: false }) };
    setPlanReady(false);
    if (planned === undefined) setMessage('');
    setChosen([]);
    setLogShown(false);
    await chat.send(text, options);
    setPlanReady(options.plan_mode === true);
    await threads.indexMessages(thread);
  }

  async function resubmit(item: Extract<ChatItem, { kind: 'user' }>, text: string) {
    if (threadId === null || item.messageIndex === undefined || busy || paused) return;
    await chat.send(text, optionsFor(threadId, text), { itemKey: item.key, messageIndex: item.messageIndex });
    await threads.indexMessages(threadId);
  }

  /**
   * Sends the failed message again; a stored copy of it (a turn that failed after finishing a
   * step keeps it) is replaced, not repeated, even when the indexes of the last turn are not in yet.
   */
  async function retry() {
    let items = chat.items;
    const unindexed = items.findLast((item) => item.kind === 'user');
    if (threadId !== null && unindexed?.kind === 'user' && unindexed.messageIndex === undefined) {
      items = await threads
        .load(threadId)
        .then((thread) => withMessageIndexes(items, thread.messages))
        .catch(() => items);
    }
    const last = items.findLast((item) => item.kind === 'user');
    const stored = last?.kind === 'user' && last.messageIndex !== undefined ? last : undefined;
    await chat.retry(stored && { itemKey: stored.key, messageIndex: stored.messageIndex as number });
    if (threadId !== null) await threads.indexMessages(threadId);
  }

  const waiting = paused ? { pending: chat.pending, question: chat.inputRequest !== null } : null;
  const threadErrors = threads.threadsQuery.isError || threads.deleteThread.isError || threads.loadError !== null;

  return (
    <section aria-label="Chat" className="flex h-full min-h-0 flex-col gap-2">
      <ChatControls slot={controlsSlot}>
        <ThreadPicker
          threads={threads.threads}
          threadId={threadId}
          disabled={busy}
          deleting={threads.deleteThread.isPending}
          onPick={(next) => void threads.pick(next)}
          onDelete={threads.remove}
          onRename={threads.rename}
        />
        <Button
          variant="secondary"
          className="h-8 px-2"
          title="Start a new conversation"
          disabled={busy || threadId === null}
          onClick={() => void threads.pick(null)}
        >
          <PlusIcon />
          <span className="sr-only">New</span>
        </Button>
        {document && (
          <ExtractionToggle
            extraction={chat.extraction}
            open={extractionShown}
            controls={extractionId}
            onToggle={() => setExtractionShown((shown) => !shown)}
          />
        )}
        <ChatSettingsPanel
          settings={settings}
          onChange={updateSettings}
          readWriteTools={toolsQuery.data?.read_write ?? []}
          disabled={running}
        />
      </ChatControls>

      {(extractionShown || threadErrors || document?.auto_create_status !== undefined) && (
        // What sits above the conversation shares one capped, scrolling box: it never takes more than
        // this part of the panel, and never pushes the message box away.
        <div className="relative max-h-[40%] shrink-0 space-y-2 overflow-y-auto overscroll-contain">
          {extractionShown && <ExtractionDrawer orgId={orgId} id={extractionId} extraction={chat.extraction} />}
          {threads.threadsQuery.isError && (
            <ErrorAlert
              title="Could not load the conversations"
              error={threads.threadsQuery.error}
              onRetry={() => void threads.threadsQuery.refetch()}
            />
          )}
          {threads.deleteThread.isError && (
            <ErrorAlert title="Could not delete the conversation" error={threads.deleteThread.error} />
          )}
          {threads.loadError !== null && <ErrorAlert title="Could not load the conversation" error={threads.loadError} />}
          {document && (
            <AutoCreateReview
              orgId={orgId}
              document={document}
              disabled={busy || paused}
              // The refine thread opens like a picked one: its messages, and the proposal as its extraction.
              onRefine={(id) => {
                setLogShown(false);
                void threads.pick(id);
              }}
              logShown={logShown}
              onToggleLog={() => setLogShown((shown) => !shown)}
              compact={chat.items.length > 0 && !logShown}
            />
          )}
        </div>
      )}

      {logShown && document ? (
        <AutoCreateLogView orgId={orgId} documentId={document.id} />
      ) : threads.loading ? (
        <div className="min-h-0 flex-1">
          <LoadingState label="Loading the conversation…" />
        </div>
      ) : (
        <MessageList
          orgId={orgId}
          items={chat.items}
          emptyText={emptyText}
          decisions={decisions}
          onDecide={decide}
          onRegisterApprove={registerApprove}
          onValidate={checkArguments ?? undefined}
          busy={running}
          streaming={running}
          onResubmit={busy || paused ? undefined : (item, text) => void resubmit(item, text)}
          onRetry={busy || paused ? undefined : () => void retry()}
          undoTargets={undoable}
          onUndo={undo}
        />
      )}

      <div className="shrink-0 space-y-2">
        {paused && (
          <PendingApproval
            orgId={orgId}
            pending={chat.pending}
            decisions={decisions}
            onApprove={(callId) => (approvers.current.get(callId) ?? (() => decide(callId, { approved: true })))()}
            onReject={(callId) => decide(callId, { approved: false })}
            onApproveAll={() => decideAll(true)}
            onRejectAll={() => decideAll(false)}
          />
        )}
        {chat.inputRequest && (
          // A new question is a new card: its answer box starts empty and takes the focus.
          <InputRequestCard key={chat.inputRequest.callId} question={chat.inputRequest.question} onAnswer={submitAnswer} />
        )}
        {chat.error !== null && <ErrorAlert title="Could not start the conversation" error={chat.error} />}
        {ruleError !== null && <ErrorAlert title="The call was approved, but its rule was not saved" error={ruleError} />}
        {planReady && !busy && !paused && chat.error === null && <PlanReadyBar onCarryOut={() => void send(CARRY_OUT_PLAN)} />}
        {hint !== null && (
          // Two lines at most (the whole hint in its tooltip), so that it never crowds out the message box.
          <div
            role="status"
            className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-1.5 text-xs text-amber-900"
          >
            <p className="line-clamp-2 min-w-0 flex-1" title={hint}>
              <span className="font-medium">No chat model is configured.</span> {hint}
            </p>
            <Link to={orgPath(orgId, 'settings')} className="shrink-0 font-medium underline underline-offset-2">
              Settings
            </Link>
          </div>
        )}
        {modelsQuery.isError && (
          <ErrorAlert title="Could not load the models" error={modelsQuery.error} onRetry={() => void modelsQuery.refetch()} />
        )}
        <ChatComposer
          orgId={orgId}
          message={message}
          onMessage={setMessage}
          chosen={chosen}
          onChoose={(choice) => setChosen((current) => [...current, choice])}
          onSend={() => void send()}
          waiting={waiting}
          canSend={!busy && !paused && message.trim() !== '' && chosenModel !== undefined}
          models={models}
          model={chosenModel}
          onModel={(model) => updateSettings({ model })}
          settings={settings}
          running={running}
          stopping={chat.stopping}
          progress={chat.progress}
          onStop={() => void chat.stop()}
        />
      </div>
    </section>
  );
}
