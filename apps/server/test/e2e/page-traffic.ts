import type { Page } from 'playwright-core';

/** WebSocket messages kept for a failure's report: enough to see the last turn's frames. */
const KEPT_MESSAGES = 30;
/** Answered requests kept for a failure's report: whether the step's own request went out, and how it ended. */
const KEPT_ANSWERED = 12;
/** A message longer than this is cut in the report; its type and ids come first. */
const MESSAGE_CHARS = 240;

export interface PageTraffic {
  /** The requests still waiting for an answer, the last answered ones and the page's last WebSocket messages, for a failure's message. */
  describe(): string;
}

/**
 * Records what the page is waiting on and what its sockets carried, so that a step that timed out
 * says whether a request never came back or a frame never came (neither is a browser problem).
 */
export function recordPageTraffic(page: Page): PageTraffic {
  const open = new Map<object, { what: string; since: number }>();
  const messages: string[] = [];
  const answered: string[] = [];
  const at = () => new Date().toISOString().slice(11, 23);
  const keep = (direction: string, payload: string | Buffer) => {
    const text = typeof payload === 'string' ? payload : `<${payload.length} bytes>`;
    messages.push(`${at()} ${direction} ${text.slice(0, MESSAGE_CHARS)}`);
    if (messages.length > KEPT_MESSAGES) messages.shift();
  };
  page.on('request', (request) => open.set(request, { what: `${request.method()} ${request.url()}`, since: Date.now() }));
  page.on('requestfinished', (request) => {
    open.delete(request);
    // The page may close before the answer is read; the report then goes without it.
    request
      .response()
      .then((response) => {
        answered.push(`${at()} ${request.method()} ${new URL(request.url()).pathname} ${response?.status() ?? 'no response'}`);
        if (answered.length > KEPT_ANSWERED) answered.shift();
      })
      .catch(() => {});
  });
  page.on('requestfailed', (request) => open.delete(request));
  page.on('websocket', (socket) => {
    socket.on('framesent', (frame) => keep('→', frame.payload));
    socket.on('framereceived', (frame) => keep('←', frame.payload));
    socket.on('close', () => keep('×', 'closed'));
  });
  return {
    describe() {
      const now = Date.now();
      const waiting = [...open.values()].map(({ what, since }) => `  ${what} (for ${((now - since) / 1000).toFixed(1)} s)`);
      return [
        `Requests still waiting: ${waiting.length === 0 ? 'none' : `\n${waiting.join('\n')}`}`,
        `Last answered requests: ${answered.length === 0 ? 'none' : `\n  ${answered.join('\n  ')}`}`,
        `Last WebSocket messages: ${messages.length === 0 ? 'none' : `\n  ${messages.join('\n  ')}`}`,
      ].join('\n');
    },
  };
}
