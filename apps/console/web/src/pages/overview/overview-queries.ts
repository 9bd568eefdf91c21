import { useQuery } from '@tanstack/react-query';
import { managementApi, unwrap } from '../../api/client';
import type { components } from '../../api/management-api';

export type UsageHistory = components['schemas']['UsageHistoryResponse'];
export type HistoryRange = UsageHistory['range'];

export function useTenantUsage(tenantId: string) {
  return useQuery({
    queryKey: ['tenant', tenantId, 'usage'],
    queryFn: () => unwrap(managementApi(tenantId).GET('/api/v2/tenant/usage')),
    refetchInterval: 30_000,
  });
}

/** Hourly points over 24 hours, daily over 30 days. */
export function useUsageHistory(tenantId: string, range: HistoryRange) {
  const granularity = range === '24h' ? 'hour' : 'day';
  return useQuery({
    queryKey: ['tenant', tenantId, 'usage', range],
    queryFn: () => unwrap(managementApi(tenantId).GET('/api/v2/tenant/usage/history', { params: { query: { range, granularity } } })),
  });
}

export function useRecentActivity(tenantId: string) {
  return useQuery({
    queryKey: ['tenant', tenantId, 'audit', 'recent'],
    queryFn: () => unwrap(managementApi(tenantId).GET('/api/v2/tenant/audit_event', { params: { query: { limit: 5 } } })),
  });
}
