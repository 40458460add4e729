import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { preparedPerDatabase } from '../db/prepared-query.ts';
import { webhookEndpoints } from '../db/schema.ts';
import { invalidInput, notFound } from '../errors.ts';
import { actorName, type OrgAccess, requireAdmin } from '../identity/access.ts';
import { isId, newId } from '../ids.ts';
import { requireBox, type SecretBox } from '../llm/secret-box.ts';
import { isWebhookEvent, WEBHOOK_EVENTS, type WebhookEventType } from './event-payloads.ts';
import { type AddressLookup, checkWebhookTarget } from './private-address.ts';
import { newWebhookSecret } from './signature.ts';

/** Enough for every system an organization pushes to, few enough that one event stays cheap to fan out. */
export const MAX_WEBHOOK_ENDPOINTS = 50;

/** What endpoint management needs: the database, the secret box, and whether private addresses are allowed. */
export interface WebhookEndpointServices {
  db: Db;
  /** Seals endpoint secrets (the server secret's box); undefined when the server has no secret. */
  box: SecretBox | undefined;
  allowPrivate: boolean;
  /** Name resolution for the private-address check (tests pass their own). */
  lookup?: AddressLookup;
}

type Row = typeof webhookEndpoints.$inferSelect;

/** An endpoint as shown: never its secret. */
export type WebhookEndpoint = Omit<Row, 'secretEncrypted' | 'events'> & { events: WebhookEventType[] };

export interface WebhookEndpointInput {
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
}

const toEndpoint = ({ secretEncrypted: _secret, events, ...endpoint }: Row): WebhookEndpoint => ({
  ...endpoint,
  events: events.filter(isWebhookEvent),
});

/** Endpoints receive the organization's data and carry its secrets: admins only, like members. */
export const requireWebhookAdmin = (access: OrgAccess) =>
  requireAdmin(access, "Only an organization's admins can see and change its webhooks; ask one of them.");

const boxOf = (s: WebhookEndpointServices) => requireBox(s.box, 'Webhook secrets');

/** Matches the endpoint `endpointId` of the organization only; nothing when that is not an id. */
const ofOrg = (access: OrgAccess, endpointId: string) =>
  isId(endpointId) ? and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.orgId, access.orgId)) : sql`false`;

const missing = (endpointId: string) => notFound(`Webhook endpoint ${endpointId.slice(0, 64)}`);

async function checkedInput(s: WebhookEndpointServices, input: WebhookEndpointInput): Promise<WebhookEndpointInput> {
  const unknown = input.events.filter((e) => !isWebhookEvent(e));
  if (unknown.length > 0) {
    throw invalidInput(`Unknown webhook events: ${unknown.join(', ')}. Choose from ${WEBHOOK_EVENTS.join(', ')}.`);
  }
  if (input.events.length === 0) throw invalidInput(`Choose at least one event: ${WEBHOOK_EVENTS.join(', ')}.`);
  const url = (await checkWebhookTarget(input.url.trim(), { allowPrivate: s.allowPrivate, lookup: s.lookup })).toString();
  return { ...input, url, events: [...new Set(input.events)], description: input.description.trim() };
}

/** The organization's endpoint row, secret included, or not_found. */
export async function endpointRow(db: Db, access: OrgAccess, endpointId: string): Promise<Row> {
  const [row] = await db.select().from(webhookEndpoints).where(ofOrg(access, endpointId));
  if (!row) throw missing(endpointId);
  return row;
}

export async function listWebhookEndpoints(s: WebhookEndpointServices, access: OrgAccess): Promise<WebhookEndpoint[]> {
  requireWebhookAdmin(access);
  const rows = await s.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.orgId, access.orgId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
  return rows.map(toEndpoint);
}

export async function getWebhookEndpoint(
  s: WebhookEndpointServices,
  access: OrgAccess,
  endpointId: string,
): Promise<WebhookEndpoint> {
  requireWebhookAdmin(access);
  return toEndpoint(await endpointRow(s.db, access, endpointId));
}

/** A new endpoint and its secret, which is returned here and never again (it is stored sealed). */
export async function createWebhookEndpoint(
  s: WebhookEndpointServices,
  access: OrgAccess,
  input: WebhookEndpointInput,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  requireWebhookAdmin(access);
  const checked = await checkedInput(s, input);
  const box = boxOf(s);
  const [existing] = await s.db.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.orgId, access.orgId));
  if ((existing?.n ?? 0) >= MAX_WEBHOOK_ENDPOINTS) {
    throw invalidInput(`An organization may have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints; delete one first.`);
  }
  const secret = newWebhookSecret();
  const [row] = await s.db
    .insert(webhookEndpoints)
    .values({
      id: newId(),
      orgId: access.orgId,
      ...checked,
      secretEncrypted: box.seal(secret),
      createdBy: await actorName(s.db, access),
    })
    .returning();
  return { endpoint: toEndpoint(row as Row), secret };
}

/** Replaces the endpoint's settings (PUT); its secret and its delivery log stay. */
export async function updateWebhookEndpoint(
  s: WebhookEndpointServices,
  access: OrgAccess,
  endpointId: string,
  input: WebhookEndpointInput,
): Promise<WebhookEndpoint> {
  requireWebhookAdmin(access);
  const checked = await checkedInput(s, input);
  const [row] = await s.db
    .update(webhookEndpoints)
    .set({ ...checked, updatedAt: new Date() })
    .where(ofOrg(access, endpointId))
    .returning();
  if (!row) throw missing(endpointId);
  return toEndpoint(row);
}

/** Deletes the endpoint with its delivery log; attempts still queued find nothing and end. */
export async function deleteWebhookEndpoint(s: WebhookEndpointServices, access: OrgAccess, endpointId: string): Promise<void> {
  requireWebhookAdmin(access);
  const [deleted] = await s.db.delete(webhookEndpoints).where(ofOrg(access, endpointId)).returning({ id: webhookEndpoints.id });
  if (!deleted) throw missing(endpointId);
}

/** A new secret for the endpoint, returned this once; the old one stops signing at once. */
export async function rollWebhookSecret(
  s: WebhookEndpointServices,
  access: OrgAccess,
  endpointId: string,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  requireWebhookAdmin(access);
  const secret = newWebhookSecret();
  const [row] = await s.db
    .update(webhookEndpoints)
    .set({ secretEncrypted: boxOf(s).seal(secret), updatedAt: new Date() })
    .where(ofOrg(access, endpointId))
    .returning();
  if (!row) throw missing(endpointId);
  return { endpoint: toEndpoint(row), secret };
}

/** Every event looks its endpoints up (a turn's end, a document's state): built once (prepared-query.ts). */
const subscribedEndpoints = preparedPerDatabase((db) =>
  db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.orgId, sql.placeholder('orgId')),
        eq(webhookEndpoints.enabled, true),
        sql`${webhookEndpoints.events} @> ${sql.placeholder('types')}::jsonb`,
      ),
    ),
);

/** The ids of the org's enabled endpoints that subscribe to `type` (any organization member's event may fan out). */
export function endpointsFor(db: Db, orgId: string, type: string): Promise<Array<{ id: string }>> {
  return subscribedEndpoints(db).execute({ orgId, types: JSON.stringify([type]) });
}
