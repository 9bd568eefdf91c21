import { queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { managementApi, unwrap } from '../../api/client';
import { withFreshSignIn } from '../../api/fresh-sign-in';
import type { components } from '../../api/management-api';
import { KEYSET_PAGES } from '../../api/pages';

export type Application = components['schemas']['ApplicationResponse'];
export type ApplicationType = Application['type'];
export type NewApplication = components['schemas']['CreateApplicationDto'];

const applicationsKey = (tenantId: string, organizationId: string) =>
  ['tenant', tenantId, 'organization', organizationId, 'applications'] as const;

export function useApplications(tenantId: string, organizationId: string) {
  return useInfiniteQuery({
    queryKey: applicationsKey(tenantId, organizationId),
    queryFn: ({ pageParam }) =>
      unwrap(
        managementApi(tenantId).GET('/api/v2/organization/{organizationId}/application', {
          params: { path: { organizationId }, query: { limit: 50, cursor: pageParam } },
        }),
      ),
    ...KEYSET_PAGES,
  });
}

const applicationQuery = (tenantId: string, organizationId: string, applicationId: string) =>
  queryOptions({
    queryKey: [...applicationsKey(tenantId, organizationId), applicationId],
    queryFn: () =>
      unwrap(
        managementApi(tenantId).GET('/api/v2/organization/{organizationId}/application/{applicationId}', {
          params: { path: { organizationId, applicationId } },
        }),
      ),
  });

/** One application, without its client secret (read that with useReadClientSecret). */
export function useApplication(tenantId: string, organizationId: string, applicationId: string) {
  return useQuery(applicationQuery(tenantId, organizationId, applicationId));
}

/**
 * The client secret, read when the person asks for it (admins and owners; the API wants a recent
 * sign-in and records the read in the audit log). Kept in this mutation's memory only, never in the query cache.
 */
export function useReadClientSecret(tenantId: string, organizationId: string, applicationId: string) {
  return useMutation({
    mutationFn: async (): Promise<string> => {
      const application = await withFreshSignIn(() =>
        unwrap(
          managementApi(tenantId).GET('/api/v2/organization/{organizationId}/application/{applicationId}', {
            params: { path: { organizationId, applicationId }, query: { include: 'secret' } },
          }),
        ),
      );
      return application.clientSecret ?? '';
    },
  });
}

export function useCreateApplication(tenantId: string, organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewApplication) =>
      unwrap(
        managementApi(tenantId).POST('/api/v2/organization/{organizationId}/application', { params: { path: { organizationId } }, body }),
      ),
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
      withFreshSignIn(() =>
        unwrap(
          managementApi(tenantId).POST('/api/v2/organization/{organizationId}/application/{applicationId}/rotate_secret', {
            params: { path: { organizationId, applicationId } },
            body: { revokeAccessTokens: false },
          }),
        ),
      ),
    // The cache keeps the application without its new secret; the page shows the secret once from the answer.
    onSuccess: (application) =>
      queryClient.setQueryData(applicationQuery(tenantId, organizationId, applicationId).queryKey, { ...application, clientSecret: null }),
  });
}
