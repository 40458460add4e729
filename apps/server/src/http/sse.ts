import type { FastifyReply } from 'fastify';

/** A signal that aborts when the client goes away before the response is finished. */
export function abortedWhenClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  // The response's close, not the request's: a request "closes" as soon as its body is read.
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/**
 * A Server-Sent Events response opened on the first frame, so that an error found before any
 * frame (an unknown document, a consumed turn) is still an ordinary HTTP error. `signal` aborts
 * when the client goes away.
 */
export function lazySse(reply: FastifyReply) {
  const signal = abortedWhenClientLeaves(reply);
  let open = false;
  return {
    signal,
    get opened() {
      return open;
    },
    /** One frame; `event` names it on an `event:` line, for clients that dispatch on it (seed 004's). */
    send(seq: number, data: unknown, event?: string) {
      if (!open) {
        open = true;
        reply.hijack();
        reply.raw.writeHead(200, {
          ...(reply.getHeaders() as Record<string, string>),
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          connection: 'keep-alive',
          // Proxies such as nginx must pass frames on as they come.
          'x-accel-buffering': 'no',
        });
      }
      const name = event === undefined ? '' : `event: ${event}\n`;
      if (!reply.raw.writableEnded && !reply.raw.destroyed)
        reply.raw.write(`${name}id: ${seq}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    end() {
      if (open && !reply.raw.writableEnded) reply.raw.end();
    },
  };
}
