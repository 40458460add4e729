import type { DomainEvent } from '../events/event-bus.ts';

/** The events an endpoint may subscribe to (DESIGN.md), in the order the web app lists them. */
export const WEBHOOK_EVENTS = [
  'document.uploaded',
  'document.text_ready',
  'document.error',
  'llm.completed',
  'llm.error',
  'auto_create.proposed',
  'agent.approval_needed',
  'agent.turn_finished',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** Sent by "send a test" only; no endpoint subscribes to it. */
export const PING_EVENT = 'ping';

export const isWebhookEvent = (type: string): type is WebhookEventType => (WEBHOOK_EVENTS as readonly string[]).includes(type);

/** What a domain event says to the outside: its type, organization and `data` (snake_case, like the API). */
export interface WebhookEvent {
  type: WebhookEventType;
  orgId: string;
  at: string;
  data: Record<string, unknown>;
}

/** The webhook form of a domain event; undefined for events that are not offered to webhooks. */
export function webhookEventOf(event: DomainEvent): WebhookEvent | undefined {
  const base = { orgId: event.orgId, at: event.at };
  switch (event.type) {
    case 'document.uploaded':
    case 'document.text_ready':
    case 'document.error':
      return {
        ...base,
        type: event.type,
        data: { document_id: event.documentId, ...(event.error === undefined ? {} : { error: event.error }) },
      };
    case 'llm.completed':
    case 'llm.error':
      return {
        ...base,
        type: event.type,
        data: {
          document_id: event.documentId,
          prompt_id: event.promptId,
          prompt_revid: event.promptRevid,
          prompt_version: event.promptVersion,
          ...(event.error === undefined ? {} : { error: event.error }),
        },
      };
    case 'auto_create.proposed':
      return {
        ...base,
        type: event.type,
        data: { document_id: event.documentId, prompt_revid: event.promptRevid, schema_revid: event.schemaRevid },
      };
    case 'agent.approval_needed':
    case 'agent.turn_finished':
      return {
        ...base,
        type: event.type,
        data: {
          turn_id: event.turnId,
          thread_id: event.threadId,
          subject: event.subject,
          user_id: event.userId,
          status: event.status,
          ...(event.calls === undefined ? {} : { calls: event.calls }),
          ...(event.error === undefined ? {} : { error: event.error }),
        },
      };
    default:
      return undefined;
  }
}

/** The JSON body of a delivery, the same for every endpoint and every attempt of the event. */
export function webhookBody(
  eventId: string,
  event: { type: string; orgId: string; at: string; data: Record<string, unknown> },
): Record<string, unknown> {
  return { id: eventId, type: event.type, created_at: event.at, organization_id: event.orgId, data: event.data };
}
