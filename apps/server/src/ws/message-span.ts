import { inSpan } from '@docagent/core';
import { type SpanContext, SpanKind, trace } from '@opentelemetry/api';

/** The span of the connection being opened (its upgrade request's), to link its messages to. */
export const connectionSpan = (): SpanContext | undefined => trace.getActiveSpan()?.spanContext();

/**
 * One client message that starts work (a turn, a continuation, a stop) in a span of its own
 * trace, linked to the connection's: a socket lives for hours, and one trace per connection would
 * hold every turn of it. The turn the message runs nests under this span.
 */
export function inMessageSpan(type: string, connection: SpanContext | undefined, work: () => Promise<void>): Promise<void> {
  return inSpan(
    `ws ${type}`,
    {
      kind: SpanKind.SERVER,
      root: true,
      links: connection ? [{ context: connection }] : [],
      attributes: { 'docagent.ws.message_type': type },
    },
    work,
  );
}
