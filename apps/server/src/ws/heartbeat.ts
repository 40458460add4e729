import type { WebSocket } from 'ws';

/** The part of a ws socket the heartbeat uses. */
export type BeatingSocket = Pick<WebSocket, 'ping' | 'terminate' | 'on' | 'off'>;

export interface Heartbeat {
  /** Watches a socket until it closes. */
  add(socket: BeatingSocket): void;
  readonly size: number;
  stop(): void;
}

/**
 * One timer for every socket: each beat pings them all, and ends those that did not answer the
 * previous ping (a peer gone without a close, a dead proxy). Clients answer pings by themselves
 * (browsers and ws do); what a socket costs here is one map entry.
 */
export function startHeartbeat(intervalMs: number): Heartbeat {
  const answered = new Map<BeatingSocket, boolean>();
  const timer = setInterval(() => {
    for (const [socket, alive] of answered) {
      if (!alive) {
        answered.delete(socket);
        socket.terminate();
        continue;
      }
      answered.set(socket, false);
      socket.ping();
    }
  }, intervalMs).unref();
  return {
    add(socket) {
      answered.set(socket, true);
      const onPong = () => {
        if (answered.has(socket)) answered.set(socket, true);
      };
      socket.on('pong', onPong);
      socket.on('close', () => {
        answered.delete(socket);
        socket.off('pong', onPong);
      });
    },
    get size() {
      return answered.size;
    },
    stop() {
      clearInterval(timer);
      answered.clear();
    },
  };
}
