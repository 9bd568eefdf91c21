import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { managementApi, unwrap } from '../../api/client';
import type { components, operations } from '../../api/management-api';
import { KEYSET_PAGES } from '../../api/pages';

export type LoginAttempt = components['schemas']['LoginActivityResponse'];
export type LoginAttemptStatus = LoginAttempt['status'];
export type LoginActivityFilters = Omit<
  NonNullable<operations['LoginActivityController_list_v2']['parameters']['query']>,
  'limit' | 'cursor'
>;

const organizationKey = (tenantId: string, organizationId: string) => ['tenant', tenantId, 'organizations', organizationId] as const;

/** The organization's login attempts, newest first, as filtered. */
export function useLoginActivity(tenantId: string, organizationId: string, filters: LoginActivityFilters, enabled = true) {
  return useInfiniteQuery({
    enabled,
    queryKey: [...organizationKey(tenantId, organizationId), 'login-activity', filters],
    queryFn: ({ pageParam }) =>
      unwrap(
        managementApi(tenantId).GET('/api/v2/organization/{organizationId}/login_attempt', {
          params: { path: { organizationId }, query: { limit: 50, cursor: pageParam, ...filters } },
        }),
      ),
    ...KEYSET_PAGES,
  });
}

/** The organization's applications (the first 100), to filter by. */
export function useApplicationChoices(tenantId: string, organizationId: string) {
  return useQuery({
    queryKey: [...organizationKey(tenantId, organizationId), 'applications', 'choices'],
    queryFn: () =>
      unwrap(
        managementApi(tenantId).GET('/api/v2/organization/{organizationId}/application', {
          params: { path: { organizationId }, query: { limit: 100 } },
        }),
      ),
    select: (page) => page.data,
  });
}
