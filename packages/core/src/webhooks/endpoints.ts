import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { webhookEndpoints } from '../db/schema.ts';
import { DomainError, forbidden, invalidInput, notFound } from '../errors.ts';
import type { OrgAccess } from '../identity/access.ts';
import { isId, newId } from '../ids.ts';
import type { SecretBox } from '../llm/secret-box.ts';
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

export interface WebhookEndpoint {
  id: string;
  orgId: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  enabled: boolean;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookEndpointInput {
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
}

type Row = typeof webhookEndpoints.$inferSelect;

const toEndpoint = (row: Row): WebhookEndpoint => ({
  id: row.id,
  orgId: row.orgId,
  url: row.url,
  events: row.events.filter(isWebhookEvent),
  description: row.description,
  enabled: row.enabled,
  createdBy: row.createdBy,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** Endpoints receive the organization's data and carry its secrets: admins only, like members. */
export function requireWebhookAdmin(access: OrgAccess): void {
  if (access.role !== 'admin') {
    throw forbidden("Only an organization's admins can see and change its webhooks; ask one of them.");
  }
}

function boxOf(s: WebhookEndpointServices): SecretBox {
  if (!s.box) {
    throw new DomainError(
      'unavailable',
      'Webhook secrets cannot be stored: the server has no secret. Set DOCAGENT_SECRET (at least 16 characters) and restart it.',
    );
  }
  return s.box;
}

async function checkedInput(s: WebhookEndpointServices, input: WebhookEndpointInput): Promise<WebhookEndpointInput> {
  const unknown = input.events.filter((e) => !isWebhookEvent(e));
  if (unknown.length > 0) {
    throw invalidInput(`Unknown webhook events: ${unknown.join(', ')}. Choose from ${WEBHOOK_EVENTS.join(', ')}.`);
  }
  if (input.events.length === 0) throw invalidInput(`Choose at least one event: ${WEBHOOK_EVENTS.join(', ')}.`);
  const url = (await checkWebhookTarget(input.url.trim(), { allowPrivate: s.allowPrivate, lookup: s.lookup })).toString();
  return { ...input, url, events: [...new Set(input.events)], description: input.description.trim() };
}

async function rowOf(db: Db, access: OrgAccess, endpointId: string): Promise<Row> {
  const [row] = isId(endpointId)
    ? await db
        .select()
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.orgId, access.orgId)))
    : [];
  if (!row) throw notFound(`Webhook endpoint ${endpointId.slice(0, 64)}`);
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
  return toEndpoint(await rowOf(s.db, access, endpointId));
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
      createdBy: access.userId ?? access.actor ?? 'organization token',
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
  await rowOf(s.db, access, endpointId);
  const checked = await checkedInput(s, input);
  const [row] = await s.db
    .update(webhookEndpoints)
    .set({ ...checked, updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.orgId, access.orgId)))
    .returning();
  if (!row) throw notFound(`Webhook endpoint ${endpointId}`);
  return toEndpoint(row);
}

/** Deletes the endpoint with its delivery log; attempts still queued find nothing and end. */
export async function deleteWebhookEndpoint(s: WebhookEndpointServices, access: OrgAccess, endpointId: string): Promise<void> {
  requireWebhookAdmin(access);
  await rowOf(s.db, access, endpointId);
  await s.db.delete(webhookEndpoints).where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.orgId, access.orgId)));
}

/** A new secret for the endpoint, returned this once; the old one stops signing at once. */
export async function rollWebhookSecret(
  s: WebhookEndpointServices,
  access: OrgAccess,
  endpointId: string,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  requireWebhookAdmin(access);
  await rowOf(s.db, access, endpointId);
  const secret = newWebhookSecret();
  const [row] = await s.db
    .update(webhookEndpoints)
    .set({ secretEncrypted: boxOf(s).seal(secret), updatedAt: new Date() })
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.orgId, access.orgId)))
    .returning();
  if (!row) throw notFound(`Webhook endpoint ${endpointId}`);
  return { endpoint: toEndpoint(row), secret };
}

/** The endpoint's secret in the clear, for signing; undefined when it cannot be opened (another server secret). */
export function openEndpointSecret(box: SecretBox | undefined, sealed: string): string | undefined {
  if (!box) return undefined;
  try {
    return box.open(sealed);
  } catch {
    return undefined;
  }
}

/** The org's enabled endpoints that subscribe to `type` (any organization member's event may fan out). */
export async function endpointsFor(db: Db, orgId: string, type: string): Promise<Row[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.enabled, true)));
  return rows.filter((r) => r.events.includes(type));
}

export async function endpointRow(db: Db, access: OrgAccess, endpointId: string): Promise<Row> {
  return rowOf(db, access, endpointId);
}
