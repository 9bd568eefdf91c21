import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useParams } from 'react-router';
import { consoleApi, unwrap, useCsrfToken } from './client';
import type { components } from './console-api';
import { announceSignedIn, useSignedInElsewhere } from './session-broadcast';

export type Session = components['schemas']['SessionResponse'];
export type Membership = components['schemas']['MembershipResponse'];
export type Role = Membership['role'];

/** Who is signed in, their tenants and the CSRF token the changes send. */
export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: async (): Promise<Session> => {
    const session = await unwrap(consoleApi.GET('/console/api/session'));
    useCsrfToken(session.csrfToken);
    if (session.signedIn) announceSignedIn();
    return session;
  },
  staleTime: 5 * 60_000,
});

export function useSession() {
  return useQuery(sessionQuery);
}

export type SignInStarted = components['schemas']['SignInResponse'];
export type SignInStatus = components['schemas']['SignInStatusResponse']['status'];

/** Starts Sesame's own login link for the address; the answer has the sentence the e-mail shows and the approval number. */
export function useSignIn() {
  return useMutation({
    mutationFn: (email: string) => unwrap(consoleApi.POST('/console/api/sign_in', { body: { email } })),
  });
}

/** The key of a code being sent for a sign-in, to tell whether one is on its way. */
export const signInCodeKey = (loginAttemptId: string) => ['sign-in-code', loginAttemptId];

/** Signs this browser in with the e-mail's code; then the session says so. */
export function useSignInWithCode(loginAttemptId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: signInCodeKey(loginAttemptId),
    mutationFn: (code: string) => unwrap(consoleApi.POST('/console/api/sign_in/code', { body: { loginAttemptId, code } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey }),
  });
}

/** Reads the session again when another tab of this browser signs in (the link opened there). */
export function useSessionFromOtherTabs(): void {
  const queryClient = useQueryClient();
  useSignedInElsewhere(useCallback(() => void queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey }), [queryClient]));
}

/** How long each status request is held while the sign-in is pending. */
const STATUS_WAIT_SECONDS = 20;

/**
 * Waits on a sign-in started here: a held request, asked again as soon as it answers `pending`.
 * It answers `completed` once the link is approved on another device (which signs this browser
 * in) or used in another tab of this browser; then the session is read again.
 */
export function useSignInStatus(loginAttemptId: string) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: ['sign-in-status', loginAttemptId],
    queryFn: async ({ signal }) => {
      const answer = await unwrap(
        consoleApi.GET('/console/api/sign_in/status', { params: { query: { loginAttemptId, wait: STATUS_WAIT_SECONDS } }, signal }),
      );
      if (answer.status === 'completed') await queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey });
      return answer.status;
    },
    // Asked again a second after each answer while pending (the request itself waits for a change).
    refetchInterval: (query) => (query.state.data === undefined || query.state.data === 'pending' ? 1000 : false),
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    staleTime: 0,
    gcTime: 0,
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
