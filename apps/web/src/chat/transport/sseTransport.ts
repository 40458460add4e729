import { type ChatSubject, stopTurn, streamApprove, streamChat, streamTurnAgain } from '../../api/chat';
import type { ChatTransport } from './ChatTransport';

/** The agent over HTTP: each call is a request whose answer streams the turn's frames as Server-Sent Events. */
export function sseTransport(orgId: string, subject: ChatSubject): ChatTransport {
  return {
    chat: (request, signal, onFrame) => streamChat(orgId, subject, request, signal, onFrame),
    resume: (request, signal, onFrame) => streamApprove(orgId, subject, request, signal, onFrame),
    follow: (turnId, lastEventId, signal, onFrame) => streamTurnAgain(orgId, subject, turnId, lastEventId, signal, onFrame),
    stop: (turnId) => stopTurn(orgId, subject, turnId),
    // Each stream ends with its request: nothing is held between calls.
    close: () => undefined,
  };
}
