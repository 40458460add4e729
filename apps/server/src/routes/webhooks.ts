import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  rollWebhookSecret,
  sendWebhookTest,
  updateWebhookEndpoint,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENTS,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEndpointServices,
  type WebhookScheduler,
} from '@docagent/core';
import { z } from 'zod';
import { orgOf } from '../http/auth.ts';
import type { RouteDeps, ZodApp } from '../http/types.ts';
import { ErrorBodySchema, iso, isoOrNull, OrgParamsSchema, PageQuerySchema } from './schemas.ts';

const errors = { 400: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema, 503: ErrorBodySchema };
const tags = ['webhooks'];
const id = z.string().min(1).max(64);
const EndpointParams = OrgParamsSchema.extend({ webhook_id: id });
const DeliveryParams = OrgParamsSchema.extend({ delivery_id: id });

const EndpointBodySchema = z.strictObject({
  url: z.string().trim().min(1, 'give the URL that receives the events').max(2000),
  events: z
    .array(z.enum(WEBHOOK_EVENTS))
    .min(1, `choose at least one event: ${WEBHOOK_EVENTS.join(', ')}`)
    .max(WEBHOOK_EVENTS.length * 2),
  description: z.string().max(500).default(''),
  enabled: z.boolean().default(true),
});

const EndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  description: z.string(),
  enabled: z.boolean(),
  created_by: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

const WithSecretSchema = EndpointSchema.extend({
  secret: z.string().describe('Signs the deliveries; shown in this response only'),
});

const DeliverySchema = z.object({
  id: z.string(),
  webhook_id: z.string(),
  event_id: z.string(),
  event: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number(),
  last_status_code: z.number().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  payload: z.record(z.string(), z.unknown()).describe('The body as sent (each attempt signs it anew)'),
});

const toEndpoint = (e: WebhookEndpoint): z.infer<typeof EndpointSchema> => ({
  id: e.id,
  url: e.url,
  events: e.events,
  description: e.description,
  enabled: e.enabled,
  created_by: e.createdBy,
  created_at: iso(e.createdAt),
  updated_at: iso(e.updatedAt),
});

const toDelivery = (d: WebhookDelivery): z.infer<typeof DeliverySchema> => ({
  id: d.id,
  webhook_id: d.endpointId,
  event_id: d.eventId,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  next_attempt_at: isoOrNull(d.nextAttemptAt),
  delivered_at: isoOrNull(d.deliveredAt),
  created_at: iso(d.createdAt),
  updated_at: iso(d.updatedAt),
  payload: d.payload,
});

/** An organization's webhook endpoints and their delivery logs; admins only (the core refuses the others). */
export function webhookRoutes(app: ZodApp, { db, config, extraction }: RouteDeps, scheduler: WebhookScheduler): void {
  const endpoints: WebhookEndpointServices = {
    db,
    box: extraction.llm.options.secretBox,
    allowPrivate: config.webhooks.allowPrivate,
  };
  const deliveries = { db, scheduler };
  const base = '/v0/orgs/:organization_id/webhooks';

  app.get(
    base,
    {
      schema: {
        summary: 'Webhook endpoints of the organization',
        tags,
        params: OrgParamsSchema,
        response: { 200: z.object({ webhooks: z.array(EndpointSchema) }), ...errors },
      },
    },
    async (request) => ({ webhooks: (await listWebhookEndpoints(endpoints, orgOf(request))).map(toEndpoint) }),
  );

  app.post(
    base,
    {
      schema: {
        summary: 'Create a webhook endpoint; its signing secret is in this response only',
        tags,
        params: OrgParamsSchema,
        body: EndpointBodySchema,
        response: { 201: WithSecretSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { endpoint, secret } = await createWebhookEndpoint(endpoints, orgOf(request), request.body);
      return reply.code(201).send({ ...toEndpoint(endpoint), secret });
    },
  );

  app.get(
    `${base}/:webhook_id`,
    { schema: { summary: 'A webhook endpoint', tags, params: EndpointParams, response: { 200: EndpointSchema, ...errors } } },
    async (request) => toEndpoint(await getWebhookEndpoint(endpoints, orgOf(request), request.params.webhook_id)),
  );

  app.put(
    `${base}/:webhook_id`,
    {
      schema: {
        summary: "Replace a webhook endpoint's URL, events, description and enabled flag (its secret stays)",
        tags,
        params: EndpointParams,
        body: EndpointBodySchema,
        response: { 200: EndpointSchema, ...errors },
      },
    },
    async (request) =>
      toEndpoint(await updateWebhookEndpoint(endpoints, orgOf(request), request.params.webhook_id, request.body)),
  );

  app.delete(
    `${base}/:webhook_id`,
    {
      schema: {
        summary: 'Delete a webhook endpoint and its delivery log',
        tags,
        params: EndpointParams,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await deleteWebhookEndpoint(endpoints, orgOf(request), request.params.webhook_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/:webhook_id/secret`,
    {
      schema: {
        summary: "Roll a webhook endpoint's secret: the new one is in this response only, the old one stops at once",
        tags,
        params: EndpointParams,
        response: { 200: WithSecretSchema, ...errors },
      },
    },
    async (request) => {
      const { endpoint, secret } = await rollWebhookSecret(endpoints, orgOf(request), request.params.webhook_id);
      return { ...toEndpoint(endpoint), secret };
    },
  );

  app.post(
    `${base}/:webhook_id/test`,
    {
      schema: {
        summary: 'Send a `ping` event to the endpoint; follow it in the delivery log',
        tags,
        params: EndpointParams,
        response: { 202: DeliverySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(202).send(toDelivery(await sendWebhookTest(deliveries, orgOf(request), request.params.webhook_id))),
  );

  app.get(
    `${base}/:webhook_id/deliveries`,
    {
      schema: {
        summary: "The endpoint's delivery log, newest first",
        tags,
        params: EndpointParams,
        querystring: PageQuerySchema.omit({ name_search: true })
          .extend({
            status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
            limit: z.coerce.number().int().min(1).max(200).default(50),
          })
          .strict(),
        response: {
          200: z.object({ deliveries: z.array(DeliverySchema), total_count: z.number(), skip: z.number() }),
          ...errors,
        },
      },
    },
    async (request) => {
      const page = await listWebhookDeliveries(deliveries, orgOf(request), request.params.webhook_id, request.query);
      return { deliveries: page.deliveries.map(toDelivery), total_count: page.total, skip: request.query.skip };
    },
  );

  app.post(
    '/v0/orgs/:organization_id/webhook-deliveries/:delivery_id/redeliver',
    {
      schema: {
        summary: 'Send a delivery again: the same event id and body, signed anew, with the usual retries',
        tags,
        params: DeliveryParams,
        response: { 202: DeliverySchema, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(202).send(toDelivery(await redeliverWebhook(deliveries, orgOf(request), request.params.delivery_id))),
  );
}
