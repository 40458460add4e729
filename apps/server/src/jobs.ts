import { type Database, DatabaseBlobStore, extractDocumentText, JobQueue, type ModelRegistry } from '@docagent/core';
import type { Config } from './config.ts';

/**
 * The job queue on the application database, working `workers` jobs of each kind at once in
 * this process (0: only enqueue). The server and `docagent worker` start it the same way.
 */
export function startJobQueue(database: Database, config: Config, workers: number, llm: ModelRegistry): Promise<JobQueue> {
  return JobQueue.start(
    database,
    {
      text: {
        db: database.db,
        blobs: new DatabaseBlobStore(database.db),
        extract: extractDocumentText,
        limits: config.textLimits,
      },
      extraction: { db: database.db, llm },
    },
    {
      workers,
      heartbeatSeconds: config.jobHeartbeatSeconds,
      llmRetryLimit: config.llm.jobRetries,
      llmRetryDelaySeconds: config.llm.jobRetryDelaySeconds,
    },
  );
}
