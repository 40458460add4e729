import { SpanKind } from '@opentelemetry/api';
import { inSpan } from '../telemetry/tracing.ts';

/** The parts of a pg-boss job its span names (the job's data may hold anything; it is left out). */
export interface TracedJob {
  id: string;
  /** The queue, which is the job's kind. */
  name: string;
  /** Attempts before this one. */
  retryCount: number;
  retryLimit: number;
}

/** Whether pg-boss gives up on the job if this attempt fails. */
export const isLastAttempt = (job: Pick<TracedJob, 'retryCount' | 'retryLimit'>): boolean => job.retryCount >= job.retryLimit;

/**
 * Runs one attempt of a job in a consumer span of its own trace (the request that queued it may
 * be long gone), with the outcome: `succeeded`, `retrying` (pg-boss tries again) or `failed`.
 */
export function inJobSpan(job: TracedJob, work: () => Promise<void>): Promise<void> {
  return inSpan(
    `process ${job.name}`,
    {
      kind: SpanKind.CONSUMER,
      root: true,
      attributes: {
        'messaging.system': 'pg-boss',
        'messaging.operation.type': 'process',
        'messaging.destination.name': job.name,
        'messaging.message.id': job.id,
        'docagent.job.kind': job.name,
        'docagent.job.attempt': job.retryCount + 1,
      },
    },
    async (span) => {
      try {
        await work();
        span.setAttribute('docagent.job.outcome', 'succeeded');
      } catch (error) {
        span.setAttribute('docagent.job.outcome', isLastAttempt(job) ? 'failed' : 'retrying');
        throw error;
      }
    },
  );
}
