import { PgBoss } from 'pg-boss';
import type { AutoCreateScheduler } from '../auto-create/auto-create-start.ts';
import { wantsAutoCreate } from '../auto-create/auto-create-state.ts';
import type { TableIngestScheduler, TableIngestServices } from '../data/datasets/dataset-services.ts';
import { runTableIngest } from '../data/datasets/table-ingest.ts';
import type { Database } from '../db/database.ts';
import type { TextExtractionScheduler } from '../documents/documents.ts';
import { runTextExtraction, type TextJobServices } from '../documents/text-extraction-job.ts';
import { runBatchItem } from '../extraction/batches/batch-item-job.ts';
import type { BatchScheduler } from '../extraction/batches/prompt-batches.ts';
import { runDocumentExtractions } from '../extraction/extraction-job.ts';
import type { ExtractionServices } from '../extraction/run-extraction.ts';
import { resumeWaitingExtractions, type WaitingExtractionsScheduler } from '../extraction/waiting-for-model.ts';
import { failureMessage } from '../scrub-errors.ts';
import type { WebhookAttempt, WebhookScheduler } from '../webhooks/deliveries.ts';
import { runWebhookAttempt, type WebhookAttemptServices } from '../webhooks/delivery-job.ts';
import { isLastAttempt } from './job-span.ts';
import { WakingQueue } from './waking-queue.ts';

export const TEXT_EXTRACTION_QUEUE = 'text-extraction';
/** Runs a document's prompts once its text is ready. */
export const LLM_EXTRACTION_QUEUE = 'llm-extraction';
/** Runs the headless agent on a document whose upload asked for auto-create, once its text is ready. */
export const AUTO_CREATE_QUEUE = 'auto-create';
/** Queues the prompts of documents that waited for a model, once there is one (`{orgId?}`; none: every organization). */
export const WAITING_EXTRACTIONS_QUEUE = 'waiting-extractions';
/** Makes a dataset's table (Parquet and normalized CSV) of a document too large to ingest during the request. */
export const TABLE_INGEST_QUEUE = 'table-ingest';
/** Runs a batch's prompt revision on one of its documents (`{batchId, documentId}`). */
export const BATCH_ITEM_QUEUE = 'batch-item';
/** One attempt to deliver a webhook (`WebhookAttempt`); the delivery schedules its own retries. */
export const WEBHOOK_QUEUE = 'webhook-delivery';

/**
 * The headless auto-create run of one document. It lives in the agent package, above core, so
 * the queue is handed one. It records its own outcome on the document; it throws only when the
 * attempt should be retried. `signal` aborts when the worker gives the job up (stopping, expired):
 * the run then stops where it is and leaves the cleanup to the retry.
 */
export interface AutoCreateRunner {
  run(documentId: string, attempt: { isLast: boolean }, signal: AbortSignal): Promise<void>;
}

export interface JobQueueOptions {
  /** Jobs this process works on at once; 0 only enqueues (separate `docagent worker` processes work). */
  workers: number;
  /** Retries after the first attempt, with exponential backoff from `retryDelaySeconds`. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /**
   * A running job whose worker stops sending heartbeats for this long (it crashed or was
   * killed) is retried by another worker. At least 10.
   */
  heartbeatSeconds?: number;
  /**
   * How often idle workers look for jobs nothing announced (retries and delayed jobs coming due;
   * on the embedded database, jobs sent by another process). Default 5.
   */
  pollingIntervalSeconds?: number;
  /** Retries of a document's prompts after provider failures (the provider calls retry on their own first). */
  llmRetryLimit?: number;
  llmRetryDelaySeconds?: number;
}

/** Queues an auto-create run of the document, unless one is queued or running (the queue is exclusive per document). */
async function sendAutoCreate(queue: WakingQueue, documentId: string): Promise<void> {
  await queue.send(AUTO_CREATE_QUEUE, { documentId }, { singletonKey: documentId });
}

async function sendWebhookAttempts(queue: WakingQueue, attempts: WebhookAttempt[], startAfter?: Date): Promise<void> {
  await queue.insert(
    WEBHOOK_QUEUE,
    attempts.map((data) => ({ data, ...(startAfter ? { startAfter } : {}) })),
  );
}

/**
 * The durable job queue (pg-boss) on the application database, the embedded one or a
 * PostgreSQL server. Jobs survive restarts and are shared by every process on the database.
 */
function describeQueueFault(error: unknown): string {
  if (error instanceof Error || typeof error !== 'object' || error === null) return failureMessage(error);
  const { message, queue } = error as { message?: unknown; queue?: unknown };
  const text = failureMessage(new Error(String(message ?? JSON.stringify(error))));
  return typeof queue === 'string' ? `${text} (queue ${queue})` : text;
}

export class JobQueue
  implements
    TextExtractionScheduler,
    AutoCreateScheduler,
    WaitingExtractionsScheduler,
    TableIngestScheduler,
    BatchScheduler,
    WebhookScheduler
{
  private readonly queue: WakingQueue;

  private constructor(queue: WakingQueue) {
    this.queue = queue;
  }

  static async start(
    database: Database,
    services: {
      text: TextJobServices;
      extraction: ExtractionServices;
      autoCreate?: AutoCreateRunner;
      /** Without it this process leaves table ingests to workers that have it. */
      tableIngest?: TableIngestServices;
      /** Without it this process leaves webhook attempts to workers that have it. */
      webhooks?: Omit<WebhookAttemptServices, 'scheduler'>;
    },
    options: JobQueueOptions,
  ): Promise<JobQueue> {
    const heartbeatSeconds = options.heartbeatSeconds ?? 30;
    // A silent worker's job is failed by pg-boss's monitor pass (on a supervisor's tick), which
    // otherwise runs once a minute: both look as often as heartbeats are due.
    const supervision = { superviseIntervalSeconds: heartbeatSeconds, monitorIntervalSeconds: heartbeatSeconds };
    // On PostgreSQL a job sent by any process wakes the workers of every process (LISTEN/NOTIFY,
    // one connection more). The embedded database is one session that its clients take turns on,
    // so a notification would reach the client that sent it, not the listener: there the polls and
    // this process's own wake-ups (WakingQueue) do it.
    const notify = database.kind === 'postgres';
    const boss = new PgBoss({
      ...database.connection,
      max: 4,
      ...supervision,
      useListenNotify: notify && options.workers > 0,
    });
    // pg-boss reports background faults (a lost connection, say) as events; without a
    // listener Node would treat them as fatal. A worker's fault comes as a plain object
    // ({ message, stack, queue }), which would print as "[object Object]".
    boss.on('error', (error: unknown) => process.emitWarning(`job queue: ${describeQueueFault(error)}`));
    await boss.start();
    const retryLimit = options.retryLimit ?? 3;
    const queueOptions = {
      retryLimit,
      retryDelay: options.retryDelaySeconds ?? 5,
      retryBackoff: true,
      expireInSeconds: 30 * 60,
      heartbeatSeconds,
      notify,
    };
    const llmQueueOptions = {
      ...queueOptions,
      retryLimit: options.llmRetryLimit ?? 2,
      retryDelay: options.llmRetryDelaySeconds ?? 30,
    };
    // The run records its own failures; a retry only follows a crash or a database fault, and
    // each attempt starts by deleting what the one before it created.
    const autoCreateQueueOptions = { ...queueOptions, retryLimit: 2, retryDelay: 5 };
    // A queue made by an earlier start keeps its old settings unless they are updated. The policy
    // is fixed when the queue is made: `exclusive` with the document as singleton key lets one
    // auto-create job per document be queued or running, however often the text job is retried.
    for (const [name, settings, policy] of [
      [TEXT_EXTRACTION_QUEUE, queueOptions, 'standard'],
      [LLM_EXTRACTION_QUEUE, llmQueueOptions, 'standard'],
      [AUTO_CREATE_QUEUE, autoCreateQueueOptions, 'exclusive'],
      // One run per organization (or of all) running and one queued: a request made while a run is
      // past the point that would have seen its provider queues the next one.
      [WAITING_EXTRACTIONS_QUEUE, queueOptions, 'stately'],
      [TABLE_INGEST_QUEUE, queueOptions, 'standard'],
      // The item records its own failure (the person retries the failed ones); a retry only follows a crash.
      [BATCH_ITEM_QUEUE, { ...queueOptions, retryLimit: 1 }, 'standard'],
      // Receivers' failures are retried by the delivery's own backoff; a job retry only follows a crash.
      [WEBHOOK_QUEUE, { ...queueOptions, retryLimit: 2, expireInSeconds: 5 * 60 }, 'standard'],
    ] as const) {
      if (await boss.getQueue(name)) await boss.updateQueue(name, settings);
      else await boss.createQueue(name, { ...settings, policy });
    }
    const queue = new WakingQueue(boss, options.pollingIntervalSeconds ?? 5);
    const workers = options.workers;
    if (workers > 0) {
      // A crash between storing the text and enqueueing the prompts leaves the text job
      // unfinished, so its retry enqueues them: at least once, and the prompts skip stored results.
      await queue.work<{ documentId: string }>(TEXT_EXTRACTION_QUEUE, workers, async (job) => {
        const { documentId } = job.data;
        if (await runTextExtraction(services.text, documentId, { isLast: isLastAttempt(job) })) {
          await queue.send(LLM_EXTRACTION_QUEUE, { documentId });
          // A retried text job queues no second run of the same document (see sendAutoCreate).
          if (services.autoCreate && (await wantsAutoCreate(services.text.db, documentId))) {
            await sendAutoCreate(queue, documentId);
          }
        }
      });
      await queue.work<{ documentId: string }>(LLM_EXTRACTION_QUEUE, workers, (job) =>
        runDocumentExtractions(services.extraction, job.data.documentId, { isLast: isLastAttempt(job) }),
      );
      await queue.work<{ orgId?: string }>(WAITING_EXTRACTIONS_QUEUE, workers, (job) => {
        const send = async (documentId: string, id: string) => {
          await queue.send(LLM_EXTRACTION_QUEUE, { documentId }, { id });
        };
        return resumeWaitingExtractions({ ...services.extraction, send }, job.data.orgId);
      });
      await queue.work<{ batchId: string; documentId: string }>(BATCH_ITEM_QUEUE, workers, (job) =>
        runBatchItem(services.extraction, job.data.batchId, job.data.documentId),
      );
      const { tableIngest } = services;
      if (tableIngest) {
        await queue.work<{ tableId: string }>(TABLE_INGEST_QUEUE, workers, (job) =>
          runTableIngest(tableIngest, job.data.tableId, { isLast: isLastAttempt(job) }),
        );
      }
      const { webhooks } = services;
      if (webhooks) {
        const scheduler: WebhookScheduler = {
          scheduleWebhookAttempts: (attempts, at) => sendWebhookAttempts(queue, attempts, at),
        };
        await queue.work<WebhookAttempt>(WEBHOOK_QUEUE, workers, (job) =>
          runWebhookAttempt({ ...webhooks, scheduler }, job.data),
        );
      }
      const { autoCreate } = services;
      // Without a runner (core on its own, no agent) documents asking for auto-create stay pending.
      if (autoCreate) {
        await queue.work<{ documentId: string }>(AUTO_CREATE_QUEUE, workers, (job) =>
          autoCreate.run(job.data.documentId, { isLast: isLastAttempt(job) }, job.signal),
        );
      }
    }
    const jobs = new JobQueue(queue);
    // The environment may have brought a provider since the last start: documents left waiting go now.
    await jobs.scheduleWaitingExtractions();
    return jobs;
  }

  async scheduleTextExtraction(documentId: string): Promise<void> {
    await this.queue.send(TEXT_EXTRACTION_QUEUE, { documentId });
  }

  async scheduleAutoCreate(documentId: string): Promise<void> {
    await sendAutoCreate(this.queue, documentId);
  }

  async scheduleWaitingExtractions(orgId?: string): Promise<void> {
    const data = orgId === undefined ? {} : { orgId };
    await this.queue.send(WAITING_EXTRACTIONS_QUEUE, data, { singletonKey: orgId ?? '*' });
  }

  async scheduleTableIngest(tableId: string): Promise<void> {
    await this.queue.send(TABLE_INGEST_QUEUE, { tableId });
  }

  async scheduleBatchItems(batchId: string, documentIds: string[]): Promise<void> {
    await this.queue.insert(
      BATCH_ITEM_QUEUE,
      documentIds.map((documentId) => ({ data: { batchId, documentId } })),
    );
  }

  async scheduleWebhookAttempts(attempts: WebhookAttempt[], startAfter?: Date): Promise<void> {
    await sendWebhookAttempts(this.queue, attempts, startAfter);
  }

  /** Stops fetching, lets running jobs finish, and closes the queue's own connections (the database stays open for its owner). */
  async stop(): Promise<void> {
    await this.queue.stop();
  }
}
