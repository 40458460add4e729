import { useEffect, useMemo } from 'react';
import type { ChatSubject } from '../../api/chat';
import type { ChatTransport } from './ChatTransport';
import { socketTransport } from './socketTransport';
import { sseTransport } from './sseTransport';

/**
 * The WebSocket when it opens and answers as the signed-in person, SSE otherwise (a proxy that
 * does not pass WebSockets, a server without them). Once the socket could not be opened, the
 * panel stays on SSE; a page opened later tries the socket again.
 */
export function createChatTransport(orgId: string, subject: ChatSubject): ChatTransport {
  const sse = sseTransport(orgId, subject);
  const socket = socketTransport(orgId, subject);
  let socketUsable = true;

  async function pick(): Promise<ChatTransport> {
    if (!socketUsable) return sse;
    try {
      await socket.connect();
      return socket;
    } catch {
      socketUsable = false;
      return sse;
    }
  }

  return {
    chat: async (request, signal, onFrame) => (await pick()).chat(request, signal, onFrame),
    resume: async (request, signal, onFrame) => (await pick()).resume(request, signal, onFrame),
    follow: async (turnId, lastEventId, signal, onFrame) => (await pick()).follow(turnId, lastEventId, signal, onFrame),
    stop: async (turnId) => (await pick()).stop(turnId),
    close: () => socket.close(),
  };
}

/** The panel's transport for the subject, let go when the panel is. */
export function useChatTransport(orgId: string, subject: ChatSubject): ChatTransport {
  const { kind, id } = subject;
  const transport = useMemo(() => createChatTransport(orgId, { kind, id }), [orgId, kind, id]);
  useEffect(() => () => transport.close(), [transport]);
  return transport;
}
