import { type Database, DatabaseBlobStore, extractDocumentText, JobQueue } from '@docagent/core';
import type { Config } from './config.ts';

/**
 * The job queue on the application database, working `workers` text-extraction jobs at once
 * in this process (0: only enqueue). The server and `docagent worker` start it the same way.
 */
export function startJobQueue(database: Database, config: Config, workers: number): Promise<JobQueue> {
  return JobQueue.start(
    database,
    { db: database.db, blobs: new DatabaseBlobStore(database.db), extract: extractDocumentText, limits: config.textLimits },
    { workers, heartbeatSeconds: config.jobHeartbeatSeconds },
  );
}
