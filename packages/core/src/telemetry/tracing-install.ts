import { type ContextManager, context, type TracerProvider, trace } from '@opentelemetry/api';

/**
 * Makes `provider` the process's tracer provider and `contextManager` the carrier of the active
 * span across awaits, through core's @opentelemetry/api: the one copy every package shares, so
 * the spans core and the agent start reach the server's provider. (A global registered by another
 * copy of a different version would be invisible to them.)
 */
export function installTracing(provider: TracerProvider, contextManager: ContextManager): void {
  contextManager.enable();
  if (!context.setGlobalContextManager(contextManager) || !trace.setGlobalTracerProvider(provider)) {
    throw new Error('A tracer provider is already registered in this process.');
  }
}

/** Takes the provider and context manager away again (tests, and after shutdown). */
export function uninstallTracing(): void {
  trace.disable();
  context.disable();
}
