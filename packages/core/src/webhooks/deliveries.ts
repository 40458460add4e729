import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { pageOfTable } from '../db/page-with-total.ts';
import { type WEBHOOK_DELIVERY_STATUSES, webhookDeliveries } from '../db/schema.ts';
import { storableText } from '../db/storable-text.ts';
import { conflict, notFound } from '../errors.ts';
import type { OrgAccess } from '../identity/access.ts';
import { isId, newId } from '../ids.ts';
import { failureMessage } from '../scrub-errors.ts';
import { endpointRow, endpointsFor, requireWebhookAdmin } from './endpoints.ts';
import { PING_EVENT, type WebhookEvent, webhookBody } from './event-payloads.ts';

export { WEBHOOK_DELIVERY_STATUSES } from '../db/schema.ts';

export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * One attempt to queue. `due` is the delivery's `next_attempt_at` when queued: an attempt whose
 * delivery has moved on (sent again, settled) finds another value there and does nothing, so a
 * delivery never has two series of attempts at once. `attempt` counts from 1 within the series.
 */
export interface WebhookAttempt {
  deliveryId: string;
  due: string;
  attempt: number;
}

/** Where delivery attempts are queued (the job queue). */
export interface WebhookScheduler {
  scheduleWebhookAttempts(attempts: WebhookAttempt[], startAfter?: Date): Promise<void>;
}

export interface WebhookDeliveryServices {
  db: Db;
  scheduler: WebhookScheduler;
}

type Row = typeof webhookDeliveries.$inferSelect;

export type WebhookDelivery = Omit<Row, 'orgId'>;

const toDelivery = ({ orgId: _org, ...delivery }: Row): WebhookDelivery => delivery;

const MAX_ERROR = 1000;

/** A failure as last_error keeps it: storable (a receiver's reply may hold NUL bytes) and at most MAX_ERROR characters. */
export const storableError = (error: string) => storableText(error.slice(0, MAX_ERROR)).text;

/**
 * Marks the deliveries `where` selects failed because their next attempt could not be queued,
 * rather than leave them pending with nothing to ever send them.
 */
export async function failUnqueued(db: Db, where: SQL | undefined, what: string, error: unknown): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({
      status: 'failed',
      nextAttemptAt: null,
      lastError: storableError(`${what} could not be queued (${failureMessage(error)}); send it again.`),
      updatedAt: new Date(),
    })
    .where(where);
}

/**
 * Queues the first attempts of fresh deliveries. Rows whose attempt could not be queued are marked
 * failed with the reason, rather than left pending with nothing to ever send them.
 */
async function queueFirstAttempts(s: WebhookDeliveryServices, rows: Array<{ id: string; nextAttemptAt: Date }>) {
  if (rows.length === 0) return;
  try {
    await s.scheduler.scheduleWebhookAttempts(
      rows.map((r) => ({ deliveryId: r.id, due: r.nextAttemptAt.toISOString(), attempt: 1 })),
    );
  } catch (error) {
    const ids = rows.map((r) => r.id);
    await failUnqueued(s.db, inArray(webhookDeliveries.id, ids), 'The delivery', error);
    throw error;
  }
}

/** Records one delivery of the event per endpoint and queues their first attempts. */
async function deliver(
  s: WebhookDeliveryServices,
  endpointIds: string[],
  event: Parameters<typeof webhookBody>[1],
): Promise<Row[]> {
  if (endpointIds.length === 0) return [];
  const { orgId } = event;
  const eventId = newId();
  const payload = webhookBody(eventId, event);
  const now = new Date();
  const rows = await s.db
    .insert(webhookDeliveries)
    .values(
      endpointIds.map((endpointId) => ({
        id: newId(),
        orgId,
        endpointId,
        eventId,
        event: event.type,
        payload,
        nextAttemptAt: now,
      })),
    )
    .returning();
  await queueFirstAttempts(
    s,
    rows.map((r) => ({ id: r.id, nextAttemptAt: now })),
  );
  return rows;
}

/** One delivery per enabled endpoint of the organization that wants the event, each queued. */
export async function recordWebhookDeliveries(s: WebhookDeliveryServices, event: WebhookEvent): Promise<number> {
  const endpoints = await endpointsFor(s.db, event.orgId, event.type);
  const rows = await deliver(
    s,
    endpoints.map((e) => e.id),
    event,
  );
  return rows.length;
}

/** A `ping` to one endpoint, whatever events it subscribes to: checks the URL, the secret and the receiver. */
export async function sendWebhookTest(
  s: WebhookDeliveryServices,
  access: OrgAccess,
  endpointId: string,
): Promise<WebhookDelivery> {
  requireWebhookAdmin(access);
  const endpoint = await endpointRow(s.db, access, endpointId);
  if (!endpoint.enabled) throw conflict('The endpoint is disabled; enable it, then send the test again.');
  const [row] = await deliver(s, [endpoint.id], {
    type: PING_EVENT,
    orgId: access.orgId,
    at: new Date().toISOString(),
    data: { endpoint_id: endpoint.id, message: 'A test event from docagent: this endpoint receives webhooks.' },
  });
  return toDelivery(row as Row);
}

export interface DeliveryPage {
  deliveries: WebhookDelivery[];
  total: number;
}

/** The endpoint's delivery log, newest first, a page at a time. */
export async function listWebhookDeliveries(
  s: Pick<WebhookDeliveryServices, 'db'>,
  access: OrgAccess,
  endpointId: string,
  page: { skip: number; limit: number; status?: WebhookDeliveryStatus },
): Promise<DeliveryPage> {
  requireWebhookAdmin(access);
  await endpointRow(s.db, access, endpointId);
  const where = and(
    eq(webhookDeliveries.endpointId, endpointId),
    page.status === undefined ? undefined : eq(webhookDeliveries.status, page.status),
  );
  const { rows, total } = await pageOfTable(
    s.db,
    webhookDeliveries,
    where,
    [desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id)],
    page,
  );
  return { deliveries: rows.map(toDelivery), total };
}

/**
 * "Send again": a new series of attempts of the same event id and body, starting now (each attempt
 * is signed afresh). An attempt already queued for the delivery finds it moved on and does nothing.
 */
export async function redeliverWebhook(
  s: WebhookDeliveryServices,
  access: OrgAccess,
  deliveryId: string,
): Promise<WebhookDelivery> {
  requireWebhookAdmin(access);
  const now = new Date();
  const [row] = isId(deliveryId)
    ? await s.db
        .update(webhookDeliveries)
        .set({ status: 'pending', nextAttemptAt: now, deliveredAt: null, updatedAt: now })
        .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.orgId, access.orgId)))
        .returning()
    : [];
  if (!row) throw notFound(`Webhook delivery ${deliveryId.slice(0, 64)}`);
  await queueFirstAttempts(s, [{ id: row.id, nextAttemptAt: now }]);
  return toDelivery(row);
}
