import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { managementApi, unwrap } from '../../api/client';
import type { components } from '../../api/management-api';
import { KEYSET_PAGES } from '../../api/pages';

export type Application = components['schemas']['ApplicationResponse'];
export type ApplicationType = Application['type'];
export type NewApplication = components['schemas']['CreateApplicationDto'];

const applicationsKey = (tenantId: string, organizationId: string) => ['tenant', tenantId, 'organization', organizationId, 'applications'] as const;

export function useApplications(tenantId: string, organizationId: string) {
  return useInfiniteQuery({
    queryKey: applicationsKey(tenantId, organizationId),
    queryFn: ({ pageParam }) =>
      unwrap(managementApi(tenantId).GET('/api/v2/organization/{organizationId}/application', { params: { path: { organizationId }, query: { limit: 50, cursor: pageParam } } })),
    ...KEYSET_PAGES,
  });
}

const applicationQuery = (tenantId: string, organizationId: string, applicationId: string) =>
  queryOptions({
    queryKey: [...applicationsKey(tenantId, organizationId), applicationId],
    queryFn: () =>
      unwrap(managementApi(tenantId).GET('/api/v2/organization/{organizationId}/application/{applicationId}', { params: { path: { organizationId, applicationId } } })),
  });

/** One application, with its client secret for admins (null for viewers and native apps). */
export function useApplication(tenantId: string, organizationId: string, applicationId: string) {
  return useQuery(applicationQuery(tenantId, organizationId, applicationId));
}

export function useCreateApplication(tenantId: string, organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewApplication) => unwrap(managementApi(tenantId).POST('/api/v2/organization/{organizationId}/application', { params: { path: { organizationId } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: applicationsKey(tenantId, organizationId), exact: true }),
  });
}

export function useUpdateCallbackUrls(tenantId: string, organizationId: string, applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (callbackUrls: string[]) =>
      unwrap(
        managementApi(tenantId).POST('/api/v2/organization/{organizationId}/application/{applicationId}', {
          params: { path: { organizationId, applicationId } },
          body: { callbackUrls },
        }),
      ),
    onSuccess: (application) => queryClient.setQueryData(applicationQuery(tenantId, organizationId, applicationId).queryKey, application),
  });
}

/** A new client secret: the answer holds it; the old one keeps working for the API's default overlap. */
export function useRotateSecret(tenantId: string, organizationId: string, applicationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(
        managementApi(tenantId).POST('/api/v2/organization/{organizationId}/application/{applicationId}/rotate_secret', {
          params: { path: { organizationId, applicationId } },
          body: { revokeAccessTokens: false },
        }),
      ),
    onSuccess: (application) => queryClient.setQueryData(applicationQuery(tenantId, organizationId, applicationId).queryKey, application),
  });
}
