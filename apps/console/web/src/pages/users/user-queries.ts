import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { managementApi, unwrap } from '../../api/client';
import type { components } from '../../api/management-api';
import { KEYSET_PAGES } from '../../api/pages';

export type User = components['schemas']['UserResponse'];
export type Passkey = components['schemas']['PasskeyResponse'];

const usersKey = (tenantId: string, organizationId: string) => ['tenant', tenantId, 'organizations', organizationId, 'users'] as const;

/** The organization's users, or only the one with this address when `email` is set. */
export function useUsers(tenantId: string, organizationId: string, email: string) {
  return useInfiniteQuery({
    queryKey: [...usersKey(tenantId, organizationId), { email }],
    queryFn: ({ pageParam }) =>
      unwrap(
        managementApi(tenantId).GET('/api/v2/organization/{organizationId}/user', {
          params: { path: { organizationId }, query: { limit: 50, cursor: pageParam, email: email || undefined } },
        }),
      ),
    ...KEYSET_PAGES,
  });
}

export function useSetUserBlocked(tenantId: string, organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, blocked }: { userId: string; blocked: boolean }) =>
      unwrap(
        managementApi(tenantId).POST('/api/v2/organization/{organizationId}/user/{userId}', {
          params: { path: { organizationId, userId } },
          body: { blocked },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey(tenantId, organizationId) }),
  });
}

export function useDeleteUser(tenantId: string, organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      unwrap(
        managementApi(tenantId).DELETE('/api/v2/organization/{organizationId}/user/{userId}', {
          params: { path: { organizationId, userId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usersKey(tenantId, organizationId) }),
  });
}

const userKey = (tenantId: string, organizationId: string, userId: string) => [...usersKey(tenantId, organizationId), userId] as const;

export function useUser(tenantId: string, organizationId: string, userId: string) {
  return useQuery({
    queryKey: userKey(tenantId, organizationId, userId),
    queryFn: () =>
      unwrap(
        managementApi(tenantId).GET('/api/v2/organization/{organizationId}/user/{userId}', {
          params: { path: { organizationId, userId } },
        }),
      ),
  });
}

const passkeysKey = (tenantId: string, organizationId: string, userId: string) =>
  [...userKey(tenantId, organizationId, userId), 'passkeys'] as const;

/** All of the user's passkeys, oldest first (the API answers them in one list: a user has few). */
export function useUserPasskeys(tenantId: string, organizationId: string, userId: string) {
  return useQuery({
    queryKey: passkeysKey(tenantId, organizationId, userId),
    queryFn: async () =>
      (
        await unwrap(
          managementApi(tenantId).GET('/api/v2/organization/{organizationId}/user/{userId}/passkey', {
            params: { path: { organizationId, userId } },
          }),
        )
      ).data,
  });
}

export function useRemovePasskey(tenantId: string, organizationId: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (passkeyId: string) =>
      unwrap(
        managementApi(tenantId).DELETE('/api/v2/organization/{organizationId}/user/{userId}/passkey/{passkeyId}', {
          params: { path: { organizationId, userId, passkeyId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysKey(tenantId, organizationId, userId) }),
  });
}
