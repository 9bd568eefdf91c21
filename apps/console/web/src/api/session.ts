import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { consoleApi, unwrap, useCsrfToken } from './client';
import type { components } from './console-api';

export type Session = components['schemas']['SessionResponse'];
export type Membership = components['schemas']['MembershipResponse'];
export type Role = Membership['role'];

/** Who is signed in, their tenants and the CSRF token the changes send. */
export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: async (): Promise<Session> => {
    const session = await unwrap(consoleApi.GET('/console/api/session'));
    useCsrfToken(session.csrfToken);
    return session;
  },
  staleTime: 5 * 60_000,
});

export function useSession() {
  return useQuery(sessionQuery);
}

/** Starts Sesame's own login link for the address; the answer has the sentence the e-mail shows. */
export function useSignIn() {
  return useMutation({
    mutationFn: (email: string) => unwrap(consoleApi.POST('/console/api/sign_in', { body: { email } })),
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(consoleApi.POST('/console/api/sign_out')),
    onSettled: () => {
      queryClient.clear();
      return queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });
    },
  });
}

const RANK: Record<Role, number> = { viewer: 0, admin: 1, owner: 2 };

/** Whether a role may do what `needed` may (owner ⊃ admin ⊃ viewer). The API enforces it; pages only hide what would be refused. */
export function roleAllows(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

/** The membership of the tenant in the URL (/t/:tenantId/…); the tenant layout renders only when there is one. */
export function useMembership(): Membership {
  const { tenantId } = useParams();
  const { data } = useSession();
  const membership = data?.memberships.find((candidate) => candidate.tenantId === tenantId);
  if (!membership) throw new Error('useMembership outside a tenant the member belongs to');
  return membership;
}

/** Whether the signed-in member's role in this tenant allows `needed`. */
export function useCan(needed: Role): boolean {
  return roleAllows(useMembership().role, needed);
}
