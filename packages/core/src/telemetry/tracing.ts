import { isSpanContextValid, type Span, type SpanOptions, SpanStatusCode, trace } from '@opentelemetry/api';
import { isDomainError } from '../errors.ts';
import { failureMessage } from '../scrub-errors.ts';

/**
 * Spans of the product's own work (requests, jobs, model and tool calls). Core and the agent use
 * only the OpenTelemetry API: until a process registers a provider (the server's telemetry.ts) every
 * span here is a no-op that costs a function call.
 */
const TRACER_NAME = 'docagent';

export const tracer = () => trace.getTracer(TRACER_NAME);

/** Marks the span failed with a low-cardinality name for what failed. */
export function markSpanFailed(span: Span, type: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR });
}

/**
 * Marks the span failed by an error. The exception event carries the same scrubbed message the
 * logs get: a failed statement's values (a person's content) never leave the process.
 */
export function recordSpanFailure(span: Span, error: unknown): void {
  span.recordException({ name: error instanceof Error ? error.name : 'Error', message: failureMessage(error) });
  markSpanFailed(span, errorTypeOf(error));
}

/** A low-cardinality name for what failed: a domain error's kind, else the error's class. */
function errorTypeOf(error: unknown): string {
  if (isDomainError(error)) return error.kind;
  return error instanceof Error ? error.name : 'unknown';
}

/**
 * Runs `work` in a span that is the active one for everything it awaits (so model and tool calls
 * nest under it), records a thrown error, and always ends the span.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  return tracer().startActiveSpan(name, options, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      recordSpanFailure(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The active span's ids, for log lines written inside it; none when nothing is traced. */
export function activeTraceIds(): { trace_id: string; span_id: string } | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  // Without a provider spans have the invalid (all-zero) context: nothing to correlate with.
  if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}
