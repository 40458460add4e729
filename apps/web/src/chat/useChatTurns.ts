import { useCallback, useEffect, useRef, useState } from 'react';
import { type Approval, stopTurn, streamApprove, streamChat, useRefreshAfterTurn } from '../api/chat';
import type { ChatFrame, ToolCallInfo } from '../api/chatStream';
import { errorMessage } from '../api/client';
import { abandonPending, applyFrame, type ChatItem, newKey } from './chatItems';

export type TurnPhase = 'idle' | 'running' | 'paused';

export interface InputRequest {
  callId: string;
  question: string;
}

interface SendOptions {
  threadId: string;
  model: string | undefined;
  autoApprove: boolean;
}

type Stream = (signal: AbortSignal, onFrame: (frame: ChatFrame) => void) => Promise<void>;

/**
 * The conversation on screen and the turn in progress: sending a message, following its frames,
 * pausing for approvals or an answer, continuing, and stopping.
 */
export function useChatTurns(orgId: string, documentId: string) {
  const [items, setItems] = useState<ChatItem[]>([]);
  const [phase, setPhase] = useState<TurnPhase>('idle');
  const [pending, setPending] = useState<ToolCallInfo[]>([]);
  const [inputRequest, setInputRequest] = useState<InputRequest | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [stopping, setStopping] = useState(false);
  const turnId = useRef<string | null>(null);
  const threadOfTurn = useRef<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const refreshAfterTurn = useRefreshAfterTurn(orgId);

  // Leaving the page closes the stream, which stops the turn on the server.
  useEffect(() => () => controller.current?.abort(), []);

  const run = useCallback(
    async (stream: Stream) => {
      const abort = new AbortController();
      controller.current = abort;
      setPhase('running');
      setError(null);
      let paused = false;
      let stopped = false;
      try {
        await stream(abort.signal, (frame) => {
          switch (frame.type) {
            case 'turn_started':
              turnId.current = frame.turn_id;
              break;
            case 'pending_tool_calls':
              paused = true;
              setPending(frame.tool_calls);
              break;
            case 'input_request':
              paused = true;
              setInputRequest({ callId: frame.call_id, question: frame.question });
              break;
            case 'stopped':
              stopped = true;
              break;
            case 'error':
              setError(new Error(frame.error));
              break;
            default:
              break;
          }
          setItems((current) => applyFrame(current, frame));
        });
      } catch (caught) {
        if (abort.signal.aborted) {
          if (!stopped) setItems((current) => [...current, { kind: 'notice', key: newKey('notice'), text: 'Stopped.' }]);
        } else {
          setError(caught);
          setItems((current) => applyFrame(current, { type: 'error', error: errorMessage(caught) }));
        }
        paused = false;
      } finally {
        if (controller.current === abort) controller.current = null;
        setStopping(false);
        if (!paused) {
          turnId.current = null;
          setPending([]);
          setInputRequest(null);
          setItems(abandonPending);
        }
        setPhase(paused ? 'paused' : 'idle');
        void refreshAfterTurn();
      }
    },
    [refreshAfterTurn],
  );

  const send = useCallback(
    (text: string, { threadId, model, autoApprove }: SendOptions) => {
      threadOfTurn.current = threadId;
      setItems((current) => [...current, { kind: 'user', key: newKey('user'), text }]);
      return run((signal, onFrame) =>
        streamChat(
          orgId,
          documentId,
          { messages: [{ role: 'user', content: text }], model, auto_approve: autoApprove, thread_id: threadId },
          signal,
          onFrame,
        ),
      );
    },
    [orgId, documentId, run],
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
      if (input !== undefined) {
        setItems((current) => [...current, { kind: 'user', key: newKey('user'), text: input }]);
      }
      return run((signal, onFrame) =>
        streamApprove(
          orgId,
          documentId,
          { turn_id: id, approvals, input, thread_id: threadOfTurn.current ?? undefined },
          signal,
          onFrame,
        ),
      );
    },
    [orgId, documentId, run],
  );

  /** Asks the server to stop the turn, then closes the stream (which alone would also stop it). */
  const stop = useCallback(async () => {
    setStopping(true);
    const id = turnId.current;
    if (id) {
      try {
        await stopTurn(orgId, documentId, id);
      } catch {
        // Closing the stream below stops the turn too.
      }
    }
    controller.current?.abort();
  }, [orgId, documentId]);

  /** Shows another conversation (or none), leaving any paused turn behind. */
  const reset = useCallback((next: ChatItem[]) => {
    controller.current?.abort();
    turnId.current = null;
    setItems(next);
    setPending([]);
    setInputRequest(null);
    setError(null);
    setPhase('idle');
  }, []);

  return { items, phase, pending, inputRequest, error, stopping, send, resume, stop, reset, setError };
}
