import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ContentKind, FakePace, SseEvent } from './script.ts';

export function encodeSseEvent(event: SseEvent): string {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  return `${event.event !== undefined ? `event: ${event.event}\n` : ''}data: ${data}\n\n`;
}

function write(res: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve, reject) => {
    res.write(chunk, (error) => (error ? reject(error) : resolve()));
  });
}

export interface SseWriteOptions {
  /** At most this many events, never the terminal (last) one; then the socket is destroyed. */
  cutAfterEvents?: number;
  /** Spaces the content deltas out like a model's tokens; the other events go out as they come. */
  pace?: FakePace;
  /** Each content delta as it is written, with the time it left (epoch ms, sub-millisecond). */
  onContent?: (content: { kind: ContentKind; text: string }, at: number) => void;
}

/**
 * Writes the events as a `text/event-stream` response. With `cutAfterEvents`, at most that many events are written and
 * never the terminal (last) one; then the socket is destroyed so the client sees a broken stream.
 */
export async function writeSse(
  res: ServerResponse,
  events: SseEvent[],
  headers: Record<string, string>,
  options: SseWriteOptions = {},
): Promise<void> {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...headers,
  });
  res.socket?.setNoDelay(true);
  const { cutAfterEvents, pace } = options;
  const cut = cutAfterEvents === undefined ? undefined : Math.max(0, Math.min(Math.floor(cutAfterEvents), events.length - 1));
  const count = cut ?? events.length;
  const start = performance.now();
  const interval = pace && pace.tokensPerSecond > 0 ? 1000 / pace.tokensPerSecond : 0;
  let tokens = 0;
  // Events that are due together go out in one write, as a provider's do: a paced stream's
  // opening events, each delta with the events that follow it, and an unpaced stream whole.
  let batch = '';
  let contents: NonNullable<SseEvent['content']>[] = [];
  const flush = async () => {
    if (batch === '') return;
    const at = performance.timeOrigin + performance.now();
    const written = write(res, batch);
    for (const content of contents) options.onContent?.(content, at);
    batch = '';
    contents = [];
    await written;
  };
  try {
    if (count === 0) await write(res, ': fake-llm\n\n');
    for (let i = 0; i < count; i++) {
      const event = events[i]!;
      if (pace && event.content) {
        // Due times from the start, so that slow writes do not add up into a slower pace.
        const wait = start + pace.firstTokenMs + tokens * interval - performance.now();
        tokens++;
        if (wait > 0) {
          await flush();
          await sleep(wait);
        }
      }
      if (res.destroyed) return;
      batch += encodeSseEvent(event);
      if (event.content) contents.push(event.content);
    }
    await flush();
  } catch {
    return; // the client went away
  }
  if (cut !== undefined) {
    res.destroy();
    return;
  }
  res.end();
}
