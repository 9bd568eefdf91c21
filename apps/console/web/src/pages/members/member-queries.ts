import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { managementApi, unwrap } from '../../api/client';
import { withFreshSignIn } from '../../api/fresh-sign-in';
import type { components } from '../../api/management-api';
import { KEYSET_PAGES } from '../../api/pages';
import { sessionQuery } from '../../api/session';

export type Member = components['schemas']['MemberResponse'];
export type Role = Member['role'];
export type InviteMemberInput = components['schemas']['InviteMemberDto'];

const membersKey = (tenantId: string) => ['tenant', tenantId, 'members'] as const;

export function useMembers(tenantId: string) {
  return useInfiniteQuery({
    queryKey: membersKey(tenantId),
    queryFn: ({ pageParam }) =>
      unwrap(managementApi(tenantId).GET('/api/v2/tenant/member', { params: { query: { limit: 100, cursor: pageParam } } })),
    ...KEYSET_PAGES,
  });
}

export function useInviteMember(tenantId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: InviteMemberInput) => withFreshSignIn(() => unwrap(managementApi(tenantId).POST('/api/v2/tenant/member', { body }))),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: membersKey(tenantId) }),
  });
}

/** After a change of the signed-in member's own membership, the session (their role) is read again. */
function refreshAfter(queryClient: ReturnType<typeof useQueryClient>, tenantId: string, memberId: string, selfMemberId: string) {
  const refreshes = [queryClient.invalidateQueries({ queryKey: membersKey(tenantId) })];
  if (memberId === selfMemberId) refreshes.push(queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey }));
  return Promise.all(refreshes);
}

export function useChangeMemberRole(tenantId: string, selfMemberId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ memberId, role }: { memberId: string; role: Role }) =>
      withFreshSignIn(() =>
        unwrap(managementApi(tenantId).POST('/api/v2/tenant/member/{memberId}', { params: { path: { memberId } }, body: { role } })),
      ),
    onSuccess: (_member, { memberId }) => refreshAfter(queryClient, tenantId, memberId, selfMemberId),
  });
}

export function useRemoveMember(tenantId: string, selfMemberId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (memberId: string) =>
      withFreshSignIn(() => unwrap(managementApi(tenantId).DELETE('/api/v2/tenant/member/{memberId}', { params: { path: { memberId } } }))),
    onSuccess: (_answer, memberId) => refreshAfter(queryClient, tenantId, memberId, selfMemberId),
  });
}
