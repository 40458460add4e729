import type { JobInsert, JobWithMetadata, PgBoss, SendOptions } from 'pg-boss';
import { storableText } from '../db/storable-text.ts';
import { failureMessage, withoutUserContent } from '../scrub-errors.ts';
import { inJobSpan } from './job-span.ts';

/**
 * What a failed attempt hands pg-boss, which stores it as the job's output (jsonb): without the
 * failed statement's values (user content), and without characters jsonb refuses, or storing the
 * failure fails in turn and the job is never settled.
 */
function jobFailure(error: unknown): Error {
  const failure = new Error(storableText(failureMessage(error)).text);
  const stack = error instanceof Error ? withoutUserContent(error).stack : undefined;
  failure.stack = storableText(stack ?? failure.message).text;
  return failure;
}

/**
 * pg-boss as this process uses it: a job sent from here wakes this process's workers of its queue
 * at once, and a worker that finished a job looks for the next one at once. Polling is left as the
 * backstop for what nothing here announces (a retry or a delayed job coming due, a job sent by
 * another process without LISTEN/NOTIFY, which the embedded database cannot route), so it can be
 * slow. Workers polling every second (7 queues, 2 workers each: 14 looks a second) cost an idle
 * server on the embedded database 2.9 s of CPU a minute; with this, 1.6 s (BENCHMARKS.md).
 */
export class WakingQueue {
  private readonly boss: PgBoss;
  private readonly pollSeconds: number;
  private readonly workers = new Map<string, string[]>();

  constructor(boss: PgBoss, pollSeconds: number) {
    this.boss = boss;
    this.pollSeconds = pollSeconds;
  }

  async send(queue: string, data: object, options: SendOptions = {}): Promise<void> {
    await this.boss.send(queue, data, options);
    this.wake(queue);
  }

  async insert(queue: string, jobs: JobInsert[]): Promise<void> {
    await this.boss.insert(queue, jobs);
    this.wake(queue);
  }

  /**
   * Runs `count` workers on `queue`, each one job at a time, each attempt in its span; a failure
   * reaches pg-boss storable (see jobFailure), which retries it or gives up.
   */
  async work<T extends object>(queue: string, count: number, run: (job: JobWithMetadata<T>) => Promise<unknown>): Promise<void> {
    const ids: string[] = [];
    this.workers.set(queue, ids);
    const options = {
      localConcurrency: 1,
      includeMetadata: true,
      pollingIntervalSeconds: this.pollSeconds,
      notifyPollingIntervalSeconds: this.pollSeconds,
    } as const;
    for (let i = 0; i < count; i++) {
      // Declared first: the worker may take its first job before \`work\` has answered with its id.
      let id = '';
      id = await this.boss.work<T, void, typeof options>(queue, options, async ([job]) => {
        if (!job) return;
        try {
          // The span records the error itself (its domain kind), pg-boss the storable copy.
          await inJobSpan(job, async () => {
            await run(job);
          }).catch((error: unknown) => {
            throw jobFailure(error);
          });
        } finally {
          // Another job may be waiting: look now, not at the next poll (an empty look waits for it).
          this.boss.notifyWorker(id);
        }
      });
      ids.push(id);
    }
  }

  /** Stops fetching, lets running jobs finish, and closes pg-boss's own connections. */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, close: true, timeout: 20_000 });
  }

  private wake(queue: string): void {
    for (const id of this.workers.get(queue) ?? []) this.boss.notifyWorker(id);
  }
}
