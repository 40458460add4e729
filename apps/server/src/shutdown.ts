import type { FastifyBaseLogger } from 'fastify';

const SHUTDOWN_GRACE_MS = 30_000;

/**
 * On SIGTERM or SIGINT, runs `close` once and exits 0 (1 if it fails); a close that takes
 * longer than the grace period is cut short so that an orchestrator's restart is not stuck.
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
    close().then(
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
