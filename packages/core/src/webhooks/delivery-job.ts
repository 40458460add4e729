import { and, eq } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints } from '../db/schema.ts';
import { type SecretBox, tryOpen } from '../llm/secret-box.ts';
import { failureMessage } from '../scrub-errors.ts';
import { failUnqueued, storableError, type WebhookAttempt, type WebhookDeliveryServices } from './deliveries.ts';
import { parseWebhookUrl } from './private-address.ts';
import { webhookHeaders } from './signature.ts';
import { type PostOutcome, postWebhook } from './webhook-post.ts';

/** 30 s, 2 min, 10 min, 1 h, 6 h: six attempts over about seven hours ride out a receiver's deploy or outage. */
export const DEFAULT_WEBHOOK_RETRY_DELAYS_SECONDS = [30, 120, 600, 3600, 21_600];

export interface WebhookAttemptServices extends WebhookDeliveryServices {
  box: SecretBox | undefined;
  allowPrivate: boolean;
  /** Waits before the 2nd, 3rd, ... attempt; one attempt more than there are delays. */
  retryDelaysSeconds: number[];
  /** The bound on one attempt, connection to last byte. */
  timeoutMs: number;
}

/**
 * Works one queued attempt: POSTs the delivery's body signed now, then records the outcome and,
 * after a failure with attempts left, queues the next one after its backoff. Throws only on a
 * database fault, so the job is retried; the receiver's failures are outcomes, not faults.
 */
export async function runWebhookAttempt(s: WebhookAttemptServices, job: WebhookAttempt): Promise<void> {
  const [found] = await s.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, job.deliveryId));
  // Deleted with its endpoint, settled, or sent again since this attempt was queued.
  if (!found) return;
  const { delivery, endpoint } = found;
  if (delivery.status !== 'pending' || delivery.nextAttemptAt?.toISOString() !== job.due) return;

  const outcome = await attempt(s, endpoint, delivery);
  const settle = async (values: Partial<typeof webhookDeliveries.$inferInsert>) =>
    s.db
      .update(webhookDeliveries)
      .set({
        attempts: delivery.attempts + 1,
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error === null ? null : storableError(outcome.error),
        updatedAt: new Date(),
        ...values,
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.nextAttemptAt, new Date(job.due))))
      .returning({ id: webhookDeliveries.id });

  if (outcome.ok) {
    await settle({ status: 'succeeded', deliveredAt: new Date(), nextAttemptAt: null });
    return;
  }
  const delay = outcome.final ? undefined : s.retryDelaysSeconds[job.attempt - 1];
  if (delay === undefined) {
    await settle({ status: 'failed', nextAttemptAt: null });
    return;
  }
  const next = new Date(Date.now() + delay * 1000);
  const updated = await settle({ nextAttemptAt: next });
  if (updated.length === 0) return;
  try {
    await s.scheduler.scheduleWebhookAttempts(
      [{ deliveryId: delivery.id, due: next.toISOString(), attempt: job.attempt + 1 }],
      next,
    );
  } catch (error) {
    const stillDue = and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.nextAttemptAt, next));
    await failUnqueued(s.db, stillDue, `${outcome.error} The next attempt`, error);
  }
}

type Outcome = PostOutcome & { final?: boolean };

async function attempt(
  s: WebhookAttemptServices,
  endpoint: typeof webhookEndpoints.$inferSelect,
  delivery: typeof webhookDeliveries.$inferSelect,
): Promise<Outcome> {
  // Retrying cannot help these: the person has to act, then send the delivery again.
  if (!endpoint.enabled) {
    return { ok: false, final: true, statusCode: null, error: 'The endpoint is disabled; enable it, then send this again.' };
  }
  const secret = tryOpen(s.box, endpoint.secretEncrypted);
  if (secret === undefined) {
    return {
      ok: false,
      final: true,
      statusCode: null,
      error:
        "The endpoint's secret cannot be opened (the server secret, DOCAGENT_SECRET, changed); roll the endpoint's secret, then send this again.",
    };
  }
  // Private addresses are refused where it counts, when postWebhook connects (the address it resolves then).
  let url: URL;
  try {
    url = parseWebhookUrl(endpoint.url);
  } catch (error) {
    return { ok: false, statusCode: null, error: failureMessage(error) };
  }
  const body = JSON.stringify(delivery.payload);
  const headers = webhookHeaders(secret, delivery.eventId, body, Date.now() / 1000);
  return postWebhook(url, headers, body, { timeoutMs: s.timeoutMs, allowPrivate: s.allowPrivate });
}
