import { useMutation, useQuery } from '@tanstack/react-query';
import { consoleApi, managementApi, unwrap } from '../../api/client';
import { withFreshSignIn } from '../../api/fresh-sign-in';

/** Sesame's public URLs (issuer, discovery, JWKS, authorize, verify, userinfo): they do not change while the console runs. */
export function useSesameEndpoints() {
  return useQuery({ queryKey: ['endpoints'], queryFn: () => unwrap(consoleApi.GET('/console/api/endpoints')), staleTime: Infinity });
}

/** A real login for the application, to the member's own address (it reads the client secret, so it may ask for a recent sign-in). */
export function useTryIt(tenantId: string, organizationId: string, applicationId: string) {
  return useMutation({
    mutationFn: () =>
      withFreshSignIn(() =>
        unwrap(
          consoleApi.POST('/console/api/try_it', {
            params: { header: { 'Sesame-Tenant': tenantId } },
            body: { organizationId, applicationId },
          }),
        ),
      ),
  });
}

const LIVE_INTERVAL_MS = 2000;

/** The newest login attempt of this address for the application, refreshed every 2 s until it is over. */
export function useLatestAttempt(tenantId: string, organizationId: string, applicationId: string, email: string, since: string) {
  return useQuery({
    queryKey: ['tenant', tenantId, 'organization', organizationId, 'try-it', applicationId, since],
    queryFn: async () => {
      const page = await unwrap(
        managementApi(tenantId).GET('/api/v2/organization/{organizationId}/login_attempt', {
          params: { path: { organizationId }, query: { email, applicationId, from: since, limit: 1 } },
        }),
      );
      return page.data[0] ?? null;
    },
    refetchInterval: (query) => (isOver(query.state.data?.status) ? false : LIVE_INTERVAL_MS),
  });
}

function isOver(status: string | undefined): boolean {
  return status === 'completed' || status === 'expired' || status === 'locked';
}
