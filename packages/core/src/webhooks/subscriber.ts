import type { EventBus } from '../events/event-bus.ts';
import { recordWebhookDeliveries, type WebhookDeliveryServices } from './deliveries.ts';
import { webhookEventOf } from './event-payloads.ts';

/**
 * Records and queues a delivery for every event of the process's bus that an endpoint wants. The
 * bus runs it after the publisher's tick and reports its failures, so publishers never wait on
 * webhooks nor fail because of them.
 */
export function subscribeWebhooks(bus: EventBus, services: WebhookDeliveryServices): () => void {
  return bus.subscribe('*', async (event) => {
    const webhookEvent = webhookEventOf(event);
    if (webhookEvent) await recordWebhookDeliveries(services, webhookEvent);
  });
}
