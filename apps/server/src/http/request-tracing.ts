import { markSpanFailed, recordSpanFailure, tracer } from '@docagent/core';
import { context, isSpanContextValid, type Span, SpanKind, trace } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const spans = new WeakMap<FastifyRequest, { span: Span; error?: Error }>();

/**
 * One server span per HTTP request: `{method} {route template}` with the status code, from the
 * first hook until the response is closed (also after a hijack, which SSE and WebSocket upgrades
 * do, where fastify's own response hooks never run). Only the path is recorded: query strings
 * may carry tokens, and headers and bodies are never read. With tracing off it is all no-ops.
 */
export function registerRequestTracing(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const span = tracer().startSpan(request.method, {
      kind: SpanKind.SERVER,
      root: true,
      attributes: {
        'http.request.method': request.method,
        'url.path': request.url.split('?', 1)[0],
        'url.scheme': request.protocol,
      },
    });
    // Tracing off: the span is a no-op, and nothing is bound or listened to for it. (A span that
    // sampling dropped still has a valid context, so that its children follow its decision.)
    if (!isSpanContextValid(span.spanContext())) {
      done();
      return;
    }
    const traced: { span: Span; error?: Error } = { span };
    spans.set(request, traced);
    const active = trace.setSpan(context.active(), span);
    // The body arrives as stream events, which would run outside the span: bound to it, parsing,
    // the handler and fastify's closing log line all see the span (and log its trace id).
    context.bind(active, request.raw);
    context.bind(active, reply.raw);
    reply.raw.once('close', () => {
      const route = request.routeOptions.url;
      // An upgraded WebSocket's response is never written; the connection was switched.
      const status = request.ws ? 101 : reply.raw.statusCode;
      if (route) span.setAttribute('http.route', route);
      span.updateName(route ? `${request.method} ${route}` : request.method);
      span.setAttribute('http.response.status_code', status);
      // Client errors are the client's: only a server error marks the span failed.
      if (status >= 500 && traced.error) recordSpanFailure(span, traced.error);
      else if (status >= 500) markSpanFailed(span, String(status));
      span.end();
    });
    context.with(active, done);
  });
  // After the error handler answered, so the status is known when the response closes.
  app.addHook('onError', (request, _reply, error, done) => {
    const traced = spans.get(request);
    if (traced) traced.error = error;
    done();
  });
}
