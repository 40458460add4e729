import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Config } from './config.ts';

/** This process's provider, once registered; flushed and shut down by shutdownTelemetry. */
let provider: TracerProvider | undefined;

/**
 * Sets up tracing for the process when OTEL_EXPORTER_OTLP_ENDPOINT is set: spans are batched and
 * sent over OTLP/HTTP (the exporter reads the endpoint, headers, timeout and the rest of the
 * standard OTEL_* variables itself). Without the endpoint nothing is registered, so every span in
 * core and the agent stays a no-op: no overhead, no network. Call it once, before anything is traced.
 */
export function startTelemetry(config: Pick<Config, 'telemetry'>): boolean {
  if (!config.telemetry.otlpEndpoint) return false;
  registerTracing(config.telemetry.serviceName, [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })]);
  return true;
}

/** Registers a provider with these processors as the process's own (tests bring an in-memory one). */
export function registerTracing(serviceName: string, spanProcessors: SpanProcessor[]): void {
  if (provider) throw new Error('Tracing is set up already in this process.');
  const created = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName }),
    spanProcessors,
  });
  // The provider first: it is the registration that fails when one is there already, and then
  // nothing else was changed.
  if (!trace.setGlobalTracerProvider(created)) throw new Error('A tracer provider is already registered in this process.');
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  provider = created;
}

/** Sends the spans still batched and stops tracing; nothing to do when tracing is off. */
export async function shutdownTelemetry(): Promise<void> {
  const stopping = provider;
  if (!stopping) return;
  provider = undefined;
  try {
    await stopping.shutdown();
  } finally {
    trace.disable();
    context.disable();
  }
}
