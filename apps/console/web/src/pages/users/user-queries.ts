import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { managementApi, unwrap } from '../../api/client';
import type { components } from '../../api/management-api';
import { KEYSET_PAGES } from '../../api/pages';

export type User = components['schemas']['UserResponse'];

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
