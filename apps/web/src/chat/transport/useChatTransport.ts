import { useEffect, useMemo } from 'react';
import type { ChatTransport } from './ChatTransport';
import { socketTransport } from './socketTransport';
import { sseTransport } from './sseTransport';

/**
 * The WebSocket when it opens and answers as the signed-in person, SSE otherwise (a proxy that
 * does not pass WebSockets, a server without them). Once the socket could not be opened, the
 * panel stays on SSE; a page opened later tries the socket again.
 */
export function createChatTransport(orgId: string, documentId: string): ChatTransport {
  const sse = sseTransport(orgId, documentId);
  const socket = socketTransport(orgId, documentId);
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

/** The panel's transport for the document, let go when the panel is. */
export function useChatTransport(orgId: string, documentId: string): ChatTransport {
  const transport = useMemo(() => createChatTransport(orgId, documentId), [orgId, documentId]);
  useEffect(() => () => transport.close(), [transport]);
  return transport;
}
