import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { bearer, json, type Member, type TestApp } from './helpers.ts';
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

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export const webhooksPath = (who: Member) => `/v0/orgs/${who.org.id}/webhooks`;

const callAs = (server: TestApp, token: string, method: Method, url: string, payload?: object) =>
  server.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

async function createEndpoint(
  server: TestApp,
  who: Member,
  receiver: WebhookReceiver,
  path: string,
  events: string[],
): Promise<Endpoint> {
  const res = await callAs(server, who.token, 'POST', webhooksPath(who), { url: receiver.url(path), events, description: path });
  assert.equal(res.statusCode, 201, res.body);
  return json<Endpoint>(res);
}

async function deliveriesOf(
  server: TestApp,
  who: Member,
  endpointId: string,
  query: string,
): Promise<{ deliveries: Delivery[]; total_count: number; skip: number }> {
  const res = await callAs(server, who.token, 'GET', `${webhooksPath(who)}/${endpointId}/deliveries${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return json(res);
}

/** Waits until the endpoint's log has a delivery that is done (succeeded or failed) and matches. */
async function settledDelivery(
  server: TestApp,
  who: Member,
  endpointId: string,
  match: (d: Delivery) => boolean = () => true,
): Promise<Delivery> {
  for (let i = 0; i < 600; i++) {
    const found = (await deliveriesOf(server, who, endpointId, '')).deliveries.find((d) => d.status !== 'pending' && match(d));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no settled delivery for ${endpointId}`);
}

/**
 * The webhook tests' calls, defaulting to the test file's app, member and receiver: `defaults` is
 * read at each call, since the file sets them up in `before`.
 */
export function webhookTestKit(defaults: () => { server: TestApp; who: Member; receiver: WebhookReceiver }) {
  return {
    call: (server: TestApp, method: Method, url: string, payload?: object, token = defaults().who.token) =>
      callAs(server, token, method, url, payload),
    createEndpoint: (path: string, events: string[], server = defaults().server, who = defaults().who) =>
      createEndpoint(server, who, defaults().receiver, path, events),
    deliveriesOf: (endpointId: string, server = defaults().server, who = defaults().who, query = '') =>
      deliveriesOf(server, who, endpointId, query),
    settledDelivery: (endpointId: string, match?: (d: Delivery) => boolean, server = defaults().server) =>
      settledDelivery(server, defaults().who, endpointId, match),
  };
}

/** The README's verification recipe, as a receiver writes it. */
export function verifySignature(secret: string, headers: Record<string, string>, rawBody: string): boolean {
  const timestamp = headers['docagent-webhook-timestamp'] ?? '';
  const expected = `v1=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
  const given = headers['docagent-webhook-signature'] ?? '';
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) <= 300;
  return fresh && given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}
