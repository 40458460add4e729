import { useCallback, useEffect, useRef, useState } from 'react';
import { type Approval, type ChatRequest, type ChatSubject, useRefreshAfterTurn } from '../api/chat';
import type { ChatFrame, FrameHandler, ToolCallInfo, WorkingExtraction } from '../api/chatStream';
import { errorMessage } from '../api/client';
import { NOTE_WRITE_TOOLS, useRefreshNotes } from '../api/notes';
import { abandonPending, applyFrame, type ChatItem, endThinking, newKey, updateTool, withAnswer } from './chatItems';
import { extractionOfToolResult, extractionOfWorkingState } from './extraction';
import { useChatTransport } from './transport/useChatTransport';

export type TurnPhase = 'idle' | 'running' | 'paused';

export interface InputRequest {
  callId: string;
  question: string;
}

/** Where the running turn is: its current step (1-based) of at most maxSteps. */
export interface StepProgress {
  step: number;
  maxSteps: number;
}

export interface SendOptions extends Omit<ChatRequest, 'messages' | 'thread_id'> {
  threadId: string;
}

type Stream = (signal: AbortSignal, onFrame: FrameHandler) => Promise<void>;

/** How often a dropped stream is followed again before the turn is given up, and how long to wait first. */
const RECONNECTS = 3;
const RECONNECT_DELAY_MS = 500;
/**
 * How long a stopped turn has to end by itself (it stops at its next phase boundary and says so in
 * its frames) before the panel stops following it anyway.
 */
const STOP_GRACE_MS = 10_000;

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/**
 * The conversation on screen and the turn in progress: sending a message, following its frames
 * (again after a dropped stream), pausing for approvals or an answer, continuing, and stopping.
 */
export function useChatTurns(orgId: string, subject: ChatSubject) {
  const [items, setItems] = useState<ChatItem[]>([]);
  const [phase, setPhase] = useState<TurnPhase>('idle');
  const [pending, setPending] = useState<ToolCallInfo[]>([]);
  const [inputRequest, setInputRequest] = useState<InputRequest | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [stopping, setStopping] = useState(false);
  const [progress, setProgress] = useState<StepProgress | null>(null);
  const [extraction, setExtraction] = useState<WorkingExtraction | null>(null);
  const turnId = useRef<string | null>(null);
  const threadOfTurn = useRef<string | null>(null);
  /** The turn being followed: how to stop following it, and when it ended. */
  const following = useRef<{ abort: AbortController; ended: Promise<void> } | null>(null);
  const lastRequest = useRef<{ text: string; options: SendOptions } | null>(null);
  const refreshAfterTurn = useRefreshAfterTurn(orgId);
  const refreshNotes = useRefreshNotes(orgId);
  // The project whose notes the agent writes, to show its writes as soon as each is done, not at the turn's end.
  const notesProject = subject.kind === 'project' ? subject.id : null;
  const transport = useChatTransport(orgId, subject);

  // Leaving the page stops following the turn; the turn itself goes on to its next pause or end.
  useEffect(() => () => following.current?.abort.abort(), []);

  const run = useCallback(
    async (stream: Stream) => {
      const abort = new AbortController();
      let end = () => {};
      following.current = { abort, ended: new Promise<void>((resolve) => (end = resolve)) };
      setPhase('running');
      setError(null);
      let paused = false;
      let stopped = false;
      let ended = false;
      let lastEventId: string | null = null;

      let received = false;

      const onFrame: FrameHandler = (frame: ChatFrame, eventId) => {
        received = true;
        if (eventId !== null) lastEventId = eventId;
        switch (frame.type) {
          case 'turn_started':
            turnId.current = frame.turn_id;
            setProgress({ step: 1, maxSteps: frame.max_steps });
            break;
          case 'thinking_chunk':
          case 'assistant_text_chunk':
          case 'tool_calls':
            setProgress((current) => current && { ...current, step: Math.max(current.step, frame.round_index + 1) });
            break;
          case 'agent_turn_start':
            setProgress((current) => current && { ...current, step: frame.step });
            break;
          case 'tool_result':
          case 'tool_complete': {
            const succeeded = frame.type === 'tool_complete' || frame.success;
            if (succeeded && notesProject !== null && NOTE_WRITE_TOOLS.has(frame.name)) void refreshNotes(notesProject);
            const live = frame.type === 'tool_result' && !frame.success ? null : extractionOfToolResult(frame.name, frame.result);
            if (live) setExtraction(live);
            break;
          }
          case 'pending_tool_calls':
            paused = true;
            setPending(frame.tool_calls);
            break;
          case 'input_request':
          case 'agent_request_input':
            paused = true;
            setInputRequest({ callId: frame.call_id, question: frame.question });
            break;
          case 'agent_request_input_timeout':
            paused = false;
            setInputRequest(null);
            break;
          case 'stopped':
          case 'agent_stopped':
            stopped = true;
            break;
          case 'done': {
            ended = true;
            const next = extractionOfWorkingState(frame.result.working_state);
            if (next) setExtraction(next);
            break;
          }
          case 'error':
            ended = true;
            break;
          default:
            break;
        }
        setItems((current) => applyFrame(current, frame));
        // A call that ran remembers its turn: the turn's last write can be undone from its card.
        const ranIn = turnId.current;
        if ((frame.type === 'tool_result' || frame.type === 'tool_complete') && ranIn !== null) {
          setItems((current) => updateTool(current, frame.call_id, (item) => ({ ...item, turnId: ranIn })));
        }
      };

      try {
        // A stream that fails or ends before the turn's last frame dropped (a proxy, a network change):
        // the turn goes on on the server, so it is followed again from the last frame seen.
        let lastError: unknown = null;
        for (let attempt = 0; ; attempt++) {
          try {
            if (attempt === 0) await stream(abort.signal, onFrame);
            else await transport.follow(turnId.current as string, lastEventId, abort.signal, onFrame);
            lastError = null;
          } catch (caught) {
            if (abort.signal.aborted) throw caught;
            lastError = caught;
          }
          if (ended || paused || stopped || abort.signal.aborted) break;
          // Refused before its first frame (a 4xx), the request is not followed again: the turn never started.
          if (!received || turnId.current === null || attempt === RECONNECTS) {
            throw lastError ?? new Error('The connection to the agent ended before the turn did. Send the message again.');
          }
          await wait(RECONNECT_DELAY_MS * (attempt + 1), abort.signal);
        }
      } catch (caught) {
        if (abort.signal.aborted) {
          if (!stopped) setItems((current) => [...current, { kind: 'notice', key: newKey('notice'), text: 'Stopped.' }]);
        } else {
          setItems((current) => applyFrame(current, { type: 'error', error: errorMessage(caught) }));
        }
        paused = false;
      } finally {
        if (following.current?.abort === abort) following.current = null;
        end();
        setStopping(false);
        setItems(endThinking);
        if (!paused) {
          turnId.current = null;
          setPending([]);
          setInputRequest(null);
          setItems(abandonPending);
          setProgress(null);
        }
        setPhase(paused ? 'paused' : 'idle');
        void refreshAfterTurn();
      }
    },
    [transport, refreshAfterTurn, refreshNotes, notesProject],
  );

  /** Streams a new turn for the message; with truncateAt, the thread is cut back to before that stored message. */
  const post = useCallback(
    (text: string, options: SendOptions, truncateAt?: { itemKey: string; messageIndex: number }) => {
      const { threadId, ...rest } = options;
      const request: ChatRequest = {
        ...rest,
        messages: [{ role: 'user', content: text }],
        thread_id: threadId,
        ...(truncateAt ? { truncate_thread_to_message_count: truncateAt.messageIndex } : {}),
      };
      return run((signal, onFrame) => transport.chat(request, signal, onFrame));
    },
    [transport, run],
  );

  /**
   * Sends a message. With truncateAt (the index of an earlier user message on screen), the
   * conversation from that message on is replaced by the new one.
   */
  const send = useCallback(
    (text: string, options: SendOptions, truncateAt?: { itemKey: string; messageIndex: number }) => {
      threadOfTurn.current = options.threadId;
      lastRequest.current = { text, options };
      setItems((current) => {
        const cut = truncateAt ? current.findIndex((item) => item.key === truncateAt.itemKey) : -1;
        const kept = cut === -1 ? current : current.slice(0, cut);
        return [...kept, { kind: 'user', key: newKey('user'), text }];
      });
      return post(text, options, truncateAt);
    },
    [post],
  );

  /**
   * Sends the last message again (after a provider error) with its mentions and settings. With
   * truncateAt (the message on screen, stored in the thread), the thread is cut back to before it,
   * so it is not stored twice.
   */
  const retry = useCallback(
    (truncateAt?: { itemKey: string; messageIndex: number }) => {
      const last = lastRequest.current;
      if (!last) return Promise.resolve();
      setItems((current) => {
        const at = truncateAt ? current.findIndex((item) => item.key === truncateAt.itemKey) : -1;
        return at === -1 ? current.filter((item) => item.kind !== 'error') : current.slice(0, at + 1);
      });
      return post(last.text, last.options, truncateAt);
    },
    [post],
  );

  /** Continues the paused turn; calls not listed as approved are rejected. */
  const resume = useCallback(
    (approvals: Approval[], input?: string) => {
      const id = turnId.current;
      if (!id) return Promise.resolve();
      const approved = new Set(approvals.filter((approval) => approval.approved).map((approval) => approval.call_id));
      setPending([]);
      setInputRequest(null);
      setItems((current) =>
        current.map((item) =>
          item.kind === 'tool' && item.status === 'pending'
            ? { ...item, status: approved.has(item.callId) ? 'running' : 'rejected' }
            : item,
        ),
      );
      if (input !== undefined) setItems((current) => withAnswer(current, input));
      const request = { turn_id: id, approvals, input, thread_id: threadOfTurn.current ?? undefined };
      return run((signal, onFrame) => transport.resume(request, signal, onFrame));
    },
    [transport, run],
  );

  /** Asks the server to stop the turn and lets it end by itself; one that does not is no longer followed. */
  const stop = useCallback(async () => {
    const turn = following.current;
    if (!turn) return;
    setStopping(true);
    const id = turnId.current;
    if (id) {
      try {
        await transport.stop(id);
        await Promise.race([turn.ended, wait(STOP_GRACE_MS, turn.abort.signal)]);
      } catch {
        // The server could not be asked: at least the panel lets the turn go.
      }
    }
    turn.abort.abort();
  }, [transport]);

  /**
   * Marks a call's write as undone, with what is current again; an undone extraction edit gives the
   * extraction on screen its values again, when it shows that result.
   */
  const markUndone = useCallback((callId: string, message: string, restored?: WorkingExtraction) => {
    setItems((current) => updateTool(current, callId, (item) => ({ ...item, undone: message })));
    if (restored) setExtraction((shown) => (shown?.promptRevid === restored.promptRevid ? restored : shown));
  }, []);

  /** Shows another conversation (or none), leaving any paused turn behind. */
  const reset = useCallback((next: ChatItem[], nextExtraction: WorkingExtraction | null = null) => {
    following.current?.abort.abort();
    turnId.current = null;
    lastRequest.current = null;
    setItems(next);
    setPending([]);
    setInputRequest(null);
    setError(null);
    setProgress(null);
    setExtraction(nextExtraction);
    setPhase('idle');
  }, []);

  return {
    items,
    setItems,
    phase,
    pending,
    inputRequest,
    error,
    stopping,
    progress,
    extraction,
    send,
    retry,
    resume,
    stop,
    reset,
    setError,
    markUndone,
  };
}
