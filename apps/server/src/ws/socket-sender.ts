import type { WebSocket } from 'ws';
import type { ServerMessage } from './server-messages.ts';

/** Close code for a client that does not read what it is sent (the HTTP 408 of the 44xx range). */
export const CLOSE_TOO_SLOW = 4408;

/** The part of a ws socket the sender uses (a test can hand in a stand-in). */
export type SendableSocket = Pick<WebSocket, 'readyState' | 'bufferedAmount' | 'send' | 'close'>;

export interface SocketSender {
  /** Sends a message while the socket is open; drops it once it is closing or closed. */
  send(message: ServerMessage): void;
  readonly open: boolean;
}

/**
 * Sends JSON messages with a bound on what waits in the socket's buffer: a client that reads
 * slower than its turns write is disconnected (4408 "client too slow") rather than held in memory
 * without end. Its turns go on; it can follow them again from the last event id it has.
 */
export function socketSender(socket: SendableSocket, maxBufferedBytes: number): SocketSender {
  const OPEN = 1;
  return {
    get open() {
      return socket.readyState === OPEN;
    },
    send(message) {
      if (socket.readyState !== OPEN) return;
      if (socket.bufferedAmount > maxBufferedBytes) {
        socket.close(CLOSE_TOO_SLOW, 'client too slow');
        return;
      }
      socket.send(JSON.stringify(message));
    },
  };
}
