import type { ServerResponse } from 'node:http';
import type { SseEvent } from './script.ts';

export function encodeSseEvent(event: SseEvent): string {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  return `${event.event !== undefined ? `event: ${event.event}\n` : ''}data: ${data}\n\n`;
}

function write(res: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve, reject) => {
    res.write(chunk, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * Writes the events as a `text/event-stream` response. With `cutAfterEvents`, at most that many events are written and
 * never the terminal (last) one; then the socket is destroyed so the client sees a broken stream.
 */
export async function writeSse(
  res: ServerResponse,
  events: SseEvent[],
  headers: Record<string, string>,
  cutAfterEvents: number | undefined,
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...headers,
  });
  res.socket?.setNoDelay(true);
  const cut = cutAfterEvents === undefined ? undefined : Math.max(0, Math.min(Math.floor(cutAfterEvents), events.length - 1));
  const count = cut ?? events.length;
  try {
    if (count === 0) await write(res, ': fake-llm\n\n');
    for (let i = 0; i < count; i++) {
      if (res.destroyed) return;
      await write(res, encodeSseEvent(events[i]!));
    }
  } catch {
    return; // the client went away
  }
  if (cut !== undefined) {
    res.destroy();
    return;
  }
  res.end();
}
