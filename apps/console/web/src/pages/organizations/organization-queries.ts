import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { managementApi, unwrap } from '../../api/client';
import { withFreshSignIn } from '../../api/fresh-sign-in';
import type { components } from '../../api/management-api';
import { KEYSET_PAGES } from '../../api/pages';

export type Organization = components['schemas']['OrganizationResponse'];
export type OrganizationInput = components['schemas']['CreateOrganizationDto'];

const organizationsKey = (tenantId: string) => ['tenant', tenantId, 'organizations'] as const;

export function useOrganizations(tenantId: string) {
  return useInfiniteQuery({
    queryKey: organizationsKey(tenantId),
    queryFn: ({ pageParam }) =>
      unwrap(managementApi(tenantId).GET('/api/v2/organization', { params: { query: { limit: 50, cursor: pageParam } } })),
    ...KEYSET_PAGES,
  });
}

export const organizationQuery = (tenantId: string, organizationId: string) =>
  queryOptions({
    queryKey: [...organizationsKey(tenantId), organizationId],
    queryFn: () => unwrap(managementApi(tenantId).GET('/api/v2/organization/{id}', { params: { path: { id: organizationId } } })),
  });

export function useOrganization(tenantId: string, organizationId: string) {
  return useQuery(organizationQuery(tenantId, organizationId));
}

export function useCreateOrganization(tenantId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OrganizationInput) => unwrap(managementApi(tenantId).POST('/api/v2/organization', { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationsKey(tenantId) }),
  });
}

export function useUpdateOrganization(tenantId: string, organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: OrganizationInput) =>
      unwrap(managementApi(tenantId).POST('/api/v2/organization/{id}', { params: { path: { id: organizationId } }, body })),
    onSuccess: (organization) => {
      queryClient.setQueryData(organizationQuery(tenantId, organizationId).queryKey, organization);
      return queryClient.invalidateQueries({ queryKey: organizationsKey(tenantId), exact: true });
    },
  });
}

export function useDeleteOrganization(tenantId: string, organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      withFreshSignIn(() =>
        unwrap(managementApi(tenantId).DELETE('/api/v2/organization/{id}', { params: { path: { id: organizationId } } })),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationsKey(tenantId) }),
  });
}
