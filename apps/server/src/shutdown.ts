import type { FastifyBaseLogger } from 'fastify';
import { shutdownTelemetry } from './telemetry.ts';

const SHUTDOWN_GRACE_MS = 30_000;

/**
 * On SIGTERM or SIGINT, runs `close` once and exits 0 (1 if it fails); a close that takes
 * longer than the grace period is cut short so that an orchestrator's restart is not stuck.
 * Spans still batched are sent last, so that the close's own spans (the last jobs) go too.
 */
export function closeOnSignal(log: FastifyBaseLogger, draining: string, close: () => Promise<void>): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, `shutting down: ${draining}`);
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting anyway');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    close()
      .finally(() => shutdownTelemetry().catch((error: unknown) => log.warn({ err: error }, 'sending the last spans failed')))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}
