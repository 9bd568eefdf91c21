import { useInfiniteQuery } from '@tanstack/react-query';
import { managementApi, unwrap } from '../../api/client';
import type { components, operations } from '../../api/management-api';
import { KEYSET_PAGES } from '../../api/pages';

export type AuditEvent = components['schemas']['AuditEventResponse'];
export type AuditActorType = components['schemas']['AuditActorResponse']['type'];
export type AuditFilters = Omit<NonNullable<operations['AuditController_list_v2']['parameters']['query']>, 'limit' | 'cursor'>;

/** The tenant's audit events, newest first, as filtered (admins and owners only: `enabled` false for others). */
export function useAuditEvents(tenantId: string, filters: AuditFilters, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['tenant', tenantId, 'audit-events', filters],
    queryFn: ({ pageParam }) =>
      unwrap(
        managementApi(tenantId).GET('/api/v2/tenant/audit_event', { params: { query: { limit: 50, cursor: pageParam, ...filters } } }),
      ),
    ...KEYSET_PAGES,
    enabled,
  });
}
