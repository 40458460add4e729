import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteNoContent, getJson, postJson, putJson } from './client';
import { orgApiPath } from './queries';

/** The events an endpoint may receive, with what each means (the server's list, in its order). */
export const WEBHOOK_EVENTS = [
  { type: 'document.uploaded', label: 'A document was uploaded' },
  { type: 'document.text_ready', label: "A document's text is ready" },
  { type: 'document.error', label: "A document's text could not be read" },
  { type: 'llm.completed', label: 'A prompt ran on a document' },
  { type: 'llm.error', label: 'A prompt failed on a document' },
  { type: 'auto_create.proposed', label: 'Auto-create proposed a schema and prompt' },
  { type: 'agent.approval_needed', label: 'The agent waits for an approval' },
  { type: 'agent.turn_finished', label: "The agent's turn ended" },
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]['type'];

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  enabled: boolean;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** The create and roll answers: the endpoint with its secret, shown this once. */
export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  secret: string;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookEndpointInput {
  url: string;
  events: WebhookEventType[];
  description: string;
  enabled: boolean;
}

const endpointsKey = (orgId: string) => ['orgs', orgId, 'webhooks'] as const;
const deliveriesKey = (orgId: string, endpointId: string) => ['orgs', orgId, 'webhooks', endpointId, 'deliveries'] as const;
const endpointPath = (orgId: string, endpointId: string) => `${orgApiPath(orgId)}/webhooks/${encodeURIComponent(endpointId)}`;

export function useWebhooksQuery(orgId: string) {
  return useQuery({
    queryKey: endpointsKey(orgId),
    queryFn: async () => (await getJson<{ webhooks: WebhookEndpoint[] }>(`${orgApiPath(orgId)}/webhooks`)).webhooks,
  });
}

export function useCreateWebhookMutation(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookEndpointInput) =>
      postJson<WebhookEndpointWithSecret>(`${orgApiPath(orgId)}/webhooks`, { body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey(orgId) }),
  });
}

export function useUpdateWebhookMutation(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...input }: WebhookEndpointInput & { id: string }) =>
      putJson<WebhookEndpoint>(endpointPath(orgId, id), { body: input }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey(orgId) }),
  });
}

export function useDeleteWebhookMutation(orgId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteNoContent(endpointPath(orgId, id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey(orgId) }),
  });
}

export function useRollWebhookSecretMutation(orgId: string) {
  return useMutation({
    mutationFn: (id: string) => postJson<WebhookEndpointWithSecret>(`${endpointPath(orgId, id)}/secret`),
  });
}

export function useTestWebhookMutation(orgId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => postJson<WebhookDelivery>(`${endpointPath(orgId, endpointId)}/test`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(orgId, endpointId) }),
  });
}

export function useRedeliverMutation(orgId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      postJson<WebhookDelivery>(`${orgApiPath(orgId)}/webhook-deliveries/${encodeURIComponent(deliveryId)}/redeliver`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(orgId, endpointId) }),
  });
}

/** A page of the endpoint's delivery log, newest first; read again every 2 s while one on it is pending. */
export function useDeliveriesQuery(orgId: string, endpointId: string, skip: number, limit: number) {
  return useQuery({
    queryKey: [...deliveriesKey(orgId, endpointId), skip, limit],
    queryFn: () =>
      getJson<{ deliveries: WebhookDelivery[]; total_count: number }>(
        `${endpointPath(orgId, endpointId)}/deliveries?skip=${skip}&limit=${limit}`,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.status === 'pending') ? 2000 : false),
  });
}
