import { DatabaseBlobStore, DomainError, migrateDatabase, openDatabase } from '@docagent/core';
import { pino } from 'pino';
import type { Config } from './config.ts';
import { tableIngestOf } from './data.ts';
import { loggerOptions } from './http/logging.ts';
import { startJobQueue } from './jobs.ts';
import { createModelRegistry } from './llm.ts';
import { loggingEventBus } from './logging-event-bus.ts';
import { closeOnSignal } from './shutdown.ts';
import { startTelemetry } from './telemetry.ts';

/**
 * `docagent worker`: works text-extraction and prompt jobs in a process of its own, next to servers
 * started with DOCAGENT_WORKERS=0 (or alongside their in-process workers).
 */
export async function runWorker(config: Config): Promise<void> {
  if (config.database.kind !== 'postgres') {
    throw new DomainError(
      'invalid_input',
      'docagent worker needs a PostgreSQL server (DATABASE_URL): the embedded database can be open in one process only, ' +
        'where the server already runs its workers (DOCAGENT_WORKERS).',
    );
  }
  startTelemetry(config);
  const log = pino(loggerOptions(config.logLevel));
  const workers = Math.max(config.workers, 1);
  const database = await openDatabase(config.database, 'worker');
  const tableIngest = tableIngestOf(database, new DatabaseBlobStore(database.db));
  try {
    await migrateDatabase(database);
    // The worker's own bus: events of the jobs it works (texts ready, prompts run) reach webhooks too.
    const events = loggingEventBus(log);
    const queue = await startJobQueue(database, config, workers, createModelRegistry(database, config), tableIngest, events);
    log.info({ database: database.describe, workers }, 'docagent worker is ready');
    closeOnSignal(log, 'letting running jobs finish', async () => {
      await queue.stop();
      await tableIngest.close();
      await database.close();
    });
  } catch (error) {
    await tableIngest.close();
    await database.close();
    throw error;
  }
}
