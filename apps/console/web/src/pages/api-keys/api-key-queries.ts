import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { managementApi, unwrap } from '../../api/client';
import { withFreshSignIn } from '../../api/fresh-sign-in';
import type { components } from '../../api/management-api';
import { KEYSET_PAGES } from '../../api/pages';

export type ApiKey = components['schemas']['ApiKeyResponse'];
export type CreatedApiKey = components['schemas']['CreatedApiKeyResponse'];

/** Whose keys: the tenant's own, or one organization's. */
export type KeyOwner = { scope: 'tenant' } | { scope: 'organization'; organizationId: string };

const keysKey = (tenantId: string, owner: KeyOwner) =>
  owner.scope === 'tenant'
    ? (['tenant', tenantId, 'api-keys'] as const)
    : (['tenant', tenantId, 'organizations', owner.organizationId, 'api-keys'] as const);

export function useApiKeys(tenantId: string, owner: KeyOwner) {
  return useInfiniteQuery({
    queryKey: keysKey(tenantId, owner),
    queryFn: ({ pageParam }) => {
      const query = { limit: 50, cursor: pageParam };
      const api = managementApi(tenantId);
      return owner.scope === 'tenant'
        ? unwrap(api.GET('/api/v2/tenant/api_key', { params: { query } }))
        : unwrap(
            api.GET('/api/v2/organization/{organizationId}/api_key', { params: { path: { organizationId: owner.organizationId }, query } }),
          );
    },
    ...KEYSET_PAGES,
  });
}

/** Creates a key; the answer carries the key itself, which the API shows only this once. */
export function useCreateApiKey(tenantId: string, owner: KeyOwner) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: components['schemas']['CreateApiKeyDto']): Promise<CreatedApiKey> => {
      const api = managementApi(tenantId);
      return withFreshSignIn(() =>
        owner.scope === 'tenant'
          ? unwrap(api.POST('/api/v2/tenant/api_key', { body }))
          : unwrap(
              api.POST('/api/v2/organization/{organizationId}/api_key', {
                params: { path: { organizationId: owner.organizationId } },
                body,
              }),
            ),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysKey(tenantId, owner) }),
    // Nothing keeps the answer (and its key) once the page has taken it.
    gcTime: 0,
  });
}

export function useRevokeApiKey(tenantId: string, owner: KeyOwner) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => {
      const api = managementApi(tenantId);
      return withFreshSignIn(() =>
        owner.scope === 'tenant'
          ? unwrap(api.DELETE('/api/v2/tenant/api_key/{keyId}', { params: { path: { keyId } } }))
          : unwrap(
              api.DELETE('/api/v2/organization/{organizationId}/api_key/{keyId}', {
                params: { path: { organizationId: owner.organizationId, keyId } },
              }),
            ),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keysKey(tenantId, owner) }),
  });
}
