import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { managementApi, unwrap } from '../../api/client';
import { withFreshSignIn } from '../../api/fresh-sign-in';
import type { components } from '../../api/management-api';
import { itemsOf, KEYSET_PAGES } from '../../api/pages';

export type WebhookEndpoint = components['schemas']['WebhookEndpointResponse'];
export type CreatedWebhookEndpoint = components['schemas']['CreatedWebhookEndpointResponse'];
export type NewWebhookEndpoint = components['schemas']['CreateWebhookEndpointDto'];
export type WebhookEndpointChanges = components['schemas']['UpdateWebhookEndpointDto'];
export type WebhookEventType = WebhookEndpoint['eventTypes'][number];
export type WebhookDelivery = components['schemas']['WebhookDeliveryResponse'];
export type WebhookAttempt = components['schemas']['WebhookAttemptResponse'];

const PATH = '/api/v2/tenant/webhook_endpoint';
const ENDPOINT_PATH = '/api/v2/tenant/webhook_endpoint/{endpointId}';

/** How often the deliveries are read again while one is on its way (pending, or a test event not yet listed). */
export const DELIVERY_POLL_MS = 2000;

const endpointsKey = (tenantId: string) => ['tenant', tenantId, 'webhook-endpoints'] as const;
const deliveriesKey = (tenantId: string, endpointId: string) => [...endpointsKey(tenantId), endpointId, 'deliveries'] as const;

export function useWebhookEndpoints(tenantId: string) {
  return useInfiniteQuery({
    queryKey: endpointsKey(tenantId),
    queryFn: ({ pageParam }) => unwrap(managementApi(tenantId).GET(PATH, { params: { query: { limit: 50, cursor: pageParam } } })),
    ...KEYSET_PAGES,
  });
}

const endpointQuery = (tenantId: string, endpointId: string) =>
  queryOptions({
    queryKey: [...endpointsKey(tenantId), endpointId],
    queryFn: () => unwrap(managementApi(tenantId).GET(ENDPOINT_PATH, { params: { path: { endpointId } } })),
  });

/** One endpoint (never its secret). */
export function useWebhookEndpoint(tenantId: string, endpointId: string) {
  return useQuery(endpointQuery(tenantId, endpointId));
}

/** Adds an endpoint; the answer carries its signing secret, which the API shows only this once. */
export function useCreateWebhookEndpoint(tenantId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewWebhookEndpoint): Promise<CreatedWebhookEndpoint> =>
      withFreshSignIn(() => unwrap(managementApi(tenantId).POST(PATH, { body }))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey(tenantId), exact: true }),
    // Nothing keeps the answer (and its secret) once the page has taken it.
    gcTime: 0,
  });
}

/** URL, description, event types, or enabled. */
export function useUpdateWebhookEndpoint(tenantId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookEndpointChanges) =>
      unwrap(managementApi(tenantId).POST(ENDPOINT_PATH, { params: { path: { endpointId } }, body })),
    onSuccess: (endpoint) => {
      queryClient.setQueryData(endpointQuery(tenantId, endpointId).queryKey, endpoint);
      return queryClient.invalidateQueries({ queryKey: endpointsKey(tenantId), exact: true });
    },
  });
}

export function useDeleteWebhookEndpoint(tenantId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => withFreshSignIn(() => unwrap(managementApi(tenantId).DELETE(ENDPOINT_PATH, { params: { path: { endpointId } } }))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: endpointsKey(tenantId), exact: true }),
  });
}

/** A new signing secret (the API wants a recent sign-in): the answer holds it, shown once. */
export function useRotateWebhookSecret(tenantId: string, endpointId: string) {
  return useMutation({
    mutationFn: () =>
      withFreshSignIn(() =>
        unwrap(
          managementApi(tenantId).POST('/api/v2/tenant/webhook_endpoint/{endpointId}/rotate_secret', { params: { path: { endpointId } } }),
        ),
      ),
    gcTime: 0,
  });
}

/** Sends a `ping` event to this endpoint; its delivery shows up in the list once the worker has made it. */
export function useSendTestEvent(tenantId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(managementApi(tenantId).POST('/api/v2/tenant/webhook_endpoint/{endpointId}/test', { params: { path: { endpointId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(tenantId, endpointId) }),
  });
}

/**
 * The endpoint's deliveries, newest first, each with its tries. Read again every DELIVERY_POLL_MS
 * while one is pending, or while `awaitedEventId` (a test event just sent) has no delivery yet.
 */
export function useWebhookDeliveries(tenantId: string, endpointId: string, awaitedEventId: string | null) {
  return useInfiniteQuery({
    queryKey: deliveriesKey(tenantId, endpointId),
    queryFn: ({ pageParam }) =>
      unwrap(
        managementApi(tenantId).GET('/api/v2/tenant/webhook_endpoint/{endpointId}/delivery', {
          params: { path: { endpointId }, query: { limit: 20, cursor: pageParam } },
        }),
      ),
    ...KEYSET_PAGES,
    refetchInterval: (query) => {
      if (query.state.status === 'error') return false;
      const deliveries = itemsOf(query.state.data);
      const onItsWay =
        deliveries.some((delivery) => delivery.status === 'pending') ||
        (awaitedEventId !== null && !deliveries.some((delivery) => delivery.eventId === awaitedEventId));
      return onItsWay ? DELIVERY_POLL_MS : false;
    },
  });
}

/** Sends a finished delivery again (409 `webhook_delivery_pending` while it is still pending). */
export function useRedeliver(tenantId: string, endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(
        managementApi(tenantId).POST('/api/v2/tenant/webhook_endpoint/{endpointId}/delivery/{deliveryId}/redeliver', {
          params: { path: { endpointId, deliveryId } },
        }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: deliveriesKey(tenantId, endpointId) }),
  });
}
