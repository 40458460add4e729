import { AutoCreateRun } from '@docagent/agent';
import {
  type Database,
  DatabaseBlobStore,
  type EventBus,
  extractDocumentText,
  JobQueue,
  type ModelRegistry,
  subscribeWebhooks,
  type TableIngestServices,
  type TextExtractionScheduler,
} from '@docagent/core';
import { createAgent } from './agent.ts';
import type { Config } from './config.ts';

/**
 * The job queue on the application database, working `workers` jobs of each kind at once in
 * this process (0: only enqueue). The server and `docagent worker` start it the same way; table
 * ingests are worked only with `tableIngest`, which stays the caller's to close.
 */
export async function startJobQueue(
  database: Database,
  config: Config,
  workers: number,
  llm: ModelRegistry,
  tableIngest: TableIngestServices | undefined,
  events: EventBus,
): Promise<JobQueue> {
  const { db } = database;
  const blobs = new DatabaseBlobStore(db);
  const extraction = { db, llm, events };
  // The headless agent's tools may schedule text extraction on the queue it is a worker of.
  let queue: JobQueue | undefined;
  const scheduler: TextExtractionScheduler = {
    scheduleTextExtraction: async (documentId) => {
      if (!queue) throw new Error('The job queue is still starting; try again in a moment.');
      await queue.scheduleTextExtraction(documentId);
    },
  };
  const agent = createAgent(
    { db, documents: { db, blobs, scheduler, events }, extraction },
    llm,
    config,
    events,
    database.notices,
  );
  queue = await JobQueue.start(
    database,
    {
      text: { db, blobs, extract: extractDocumentText, limits: config.textLimits, events },
      extraction,
      autoCreate: new AutoCreateRun(agent.engine, { timeoutMs: config.autoCreateTimeoutMs }),
      tableIngest,
      webhooks: { db, box: llm.options.secretBox, ...config.webhooks },
    },
    {
      workers,
      heartbeatSeconds: config.jobHeartbeatSeconds,
      llmRetryLimit: config.llm.jobRetries,
      llmRetryDelaySeconds: config.llm.jobRetryDelaySeconds,
    },
  );
  // Events of this process (uploads, texts, prompts, turns) become webhook deliveries on the queue.
  subscribeWebhooks(events, { db, scheduler: queue });
  return queue;
}
