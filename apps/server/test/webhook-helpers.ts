import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { bearer, json, type TestApp } from './helpers.ts';
import type { WebhookReceiver } from './webhook-receiver.ts';

/** What the webhook tests read of the API's answers. */
export interface Endpoint {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  secret?: string;
}

export interface Delivery {
  id: string;
  event_id: string;
  event: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  payload: Record<string, unknown>;
}

export type Who = { org: { id: string }; token: string };
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export const webhooksPath = (who: Who) => `/v0/orgs/${who.org.id}/webhooks`;

export const callAs = (server: TestApp, token: string, method: Method, url: string, payload?: object) =>
  server.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

export async function createEndpoint(
  server: TestApp,
  who: Who,
  receiver: WebhookReceiver,
  path: string,
  events: string[],
): Promise<Endpoint> {
  const res = await callAs(server, who.token, 'POST', webhooksPath(who), { url: receiver.url(path), events, description: path });
  assert.equal(res.statusCode, 201, res.body);
  return json<Endpoint>(res);
}

export async function deliveriesOf(
  server: TestApp,
  who: Who,
  endpointId: string,
  query = '',
): Promise<{ deliveries: Delivery[]; total_count: number }> {
  const res = await callAs(server, who.token, 'GET', `${webhooksPath(who)}/${endpointId}/deliveries${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return json(res);
}

/** Waits until the endpoint's log has a delivery that is done (succeeded or failed) and matches. */
export async function settledDelivery(
  server: TestApp,
  who: Who,
  endpointId: string,
  match: (d: Delivery) => boolean = () => true,
): Promise<Delivery> {
  for (let i = 0; i < 600; i++) {
    const found = (await deliveriesOf(server, who, endpointId)).deliveries.find((d) => d.status !== 'pending' && match(d));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no settled delivery for ${endpointId}`);
}

/** The README's verification recipe, as a receiver writes it. */
export function verifySignature(secret: string, headers: Record<string, string>, rawBody: string): boolean {
  const timestamp = headers['docagent-webhook-timestamp'] ?? '';
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
  const given = headers['docagent-webhook-signature'] ?? '';
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
  return fresh && given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}
