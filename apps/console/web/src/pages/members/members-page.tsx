import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { itemsOf } from '../../api/pages';
import { describeError, isProblem } from '../../api/problem';
import { useCan, useMembership } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DateTime } from '../../components/date-time';
import { fieldErrorsOf } from '../../components/field-errors';
import { PagedList } from '../../components/paged-list';
import { PageHeader } from '../../components/page-header';
import { EmptyState } from '../../components/states';
import { type Member, type Role, useChangeMemberRole, useInviteMember, useMembers, useRemoveMember } from './member-queries';

const ROLES: { value: Role; label: string; description: string }[] = [
  { value: 'viewer', label: 'Viewer', description: 'reads everything but secrets.' },
  { value: 'admin', label: 'Admin', description: 'changes organizations, applications, users and keys.' },
  { value: 'owner', label: 'Owner', description: 'also manages members.' },
];

const roleLabel = (role: Role) => ROLES.find((candidate) => candidate.value === role)?.label ?? role;

const LAST_OWNER = 'The last owner can be neither removed nor demoted: make another member owner first.';

/** A refused change of a member, in words; the last-owner rule explained. */
function memberProblem(error: unknown): string {
  return isProblem(error, 'last_owner') ? LAST_OWNER : describeError(error);
}

/** The tenant's members and their roles; owners invite, change roles and remove. */
export function MembersPage() {
  const membership = useMembership();
  const { tenantId } = membership;
  const isOwner = useCan('owner');
  const members = useMembers(tenantId);
  const loaded = itemsOf(members.data);
  const changeRole = useChangeMemberRole(tenantId, membership.memberId);
  const [removing, setRemoving] = useState<Member | null>(null);
  // Only when every member is loaded can the page tell there is a single owner.
  const soleOwnerId =
    !members.hasNextPage && loaded.filter((member) => member.role === 'owner').length === 1
      ? loaded.find((member) => member.role === 'owner')?.id
      : undefined;

  return (
    <>
      <PageHeader title="Members" description="The people who sign in to this console for this tenant, and what their role lets them do." />
      <ul className="card" aria-label="Roles">
        {ROLES.map((role) => (
          <li key={role.value}>
            <strong>{role.label}</strong>: {role.description}
          </li>
        ))}
      </ul>
      {isOwner && <InviteForm tenantId={tenantId} />}
      <PagedList query={members} empty={<EmptyState title="No members" />}>
        {(items) => (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Invited by</th>
                <th scope="col">Member since</th>
                <th scope="col">Last sign-in</th>
                {isOwner && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {items.map((member) => {
                const rowError = changeRole.variables?.memberId === member.id ? changeRole.error : null;
                return (
                  <tr key={member.id}>
                    <td>
                      {member.email}
                      {member.id === membership.memberId && <span className="muted"> (you)</span>}
                    </td>
                    <td>
                      {roleLabel(member.role)}
                      {member.id === soleOwnerId && <p className="role-note">The last owner can be neither removed nor demoted.</p>}
                    </td>
                    <td>{member.invitedBy ?? <span className="muted">Created the tenant</span>}</td>
                    <td>
                      <DateTime value={member.createdAt} />
                    </td>
                    <td>
                      <DateTime value={member.lastSignInAt} />
                    </td>
                    {isOwner && (
                      <td>
                        <div className="row-actions">
                          <RoleChange
                            key={member.role}
                            member={member}
                            pending={changeRole.isPending && changeRole.variables?.memberId === member.id}
                            onChange={(role) => changeRole.mutate({ memberId: member.id, role })}
                          />
                          <button
                            type="button"
                            className="button button-small button-danger"
                            aria-label={`Remove ${member.email}`}
                            onClick={() => setRemoving(member)}
                          >
                            Remove
                          </button>
                        </div>
                        {rowError && (
                          <p className="problem" role="alert">
                            {memberProblem(rowError)}
                          </p>
                        )}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </PagedList>
      {removing && (
        <RemoveMember tenantId={tenantId} selfMemberId={membership.memberId} member={removing} onClose={() => setRemoving(null)} />
      )}
    </>
  );
}

function RoleChange({ member, pending, onChange }: { member: Member; pending: boolean; onChange: (role: Role) => void }) {
  const [role, setRole] = useState<Role>(member.role);
  const selectId = `member-role-${member.id}`;
  return (
    <>
      <label htmlFor={selectId} className="visually-hidden">
        Role of {member.email}
      </label>
      <select id={selectId} value={role} onChange={(event) => setRole(event.target.value as Role)}>
        {ROLES.map((candidate) => (
          <option key={candidate.value} value={candidate.value}>
            {candidate.label}
          </option>
        ))}
      </select>
      <button
        type="button"
        className="button button-small"
        disabled={role === member.role || pending}
        aria-label={`Change the role of ${member.email}`}
        onClick={() => onChange(role)}
      >
        {pending ? 'Saving…' : 'Change role'}
      </button>
    </>
  );
}

function InviteForm({ tenantId }: { tenantId: string }) {
  const invite = useInviteMember(tenantId);
  const form = useForm<{ email: string; role: Role }>({ defaultValues: { email: '', role: 'viewer' } });
  const serverErrors = fieldErrorsOf(invite.error);
  const emailError = form.formState.errors.email
    ? 'Enter the address they will sign in with.'
    : isProblem(invite.error, 'member_exists')
      ? describeError(invite.error)
      : serverErrors.get('email');
  const otherError = invite.error && !emailError && !serverErrors.get('role') ? describeError(invite.error) : undefined;
  return (
    <form
      className="card form"
      noValidate
      aria-labelledby="invite-heading"
      onSubmit={form.handleSubmit((values) =>
        invite.mutate({ email: values.email.trim(), role: values.role }, { onSuccess: () => form.reset() }),
      )}
    >
      <h2 id="invite-heading">Invite a member</h2>
      <div className="field">
        <label htmlFor="invite-email">E-mail</label>
        <input
          id="invite-email"
          type="email"
          autoComplete="off"
          aria-invalid={Boolean(emailError)}
          aria-describedby="invite-email-error"
          {...form.register('email', { validate: (value) => value.trim() !== '' })}
        />
        <p id="invite-email-error" className="field-error">
          {emailError}
        </p>
      </div>
      <div className="field">
        <label htmlFor="invite-role">Role</label>
        <select id="invite-role" aria-describedby="invite-role-error" {...form.register('role')}>
          {ROLES.map((role) => (
            <option key={role.value} value={role.value}>
              {role.label}
            </option>
          ))}
        </select>
        <p id="invite-role-error" className="field-error">
          {serverErrors.get('role')}
        </p>
      </div>
      {otherError && (
        <p className="problem" role="alert">
          {otherError}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={invite.isPending}>
        {invite.isPending ? 'Inviting…' : 'Invite'}
      </button>
      {invite.isSuccess && (
        <p className="notice" role="status">
          Invited {invite.data.email}: they are e-mailed an invitation.
        </p>
      )}
    </form>
  );
}

function RemoveMember({
  tenantId,
  selfMemberId,
  member,
  onClose,
}: {
  tenantId: string;
  selfMemberId: string;
  member: Member;
  onClose: () => void;
}) {
  const remove = useRemoveMember(tenantId, selfMemberId);
  return (
    <ConfirmDialog
      title={`Remove ${member.email}?`}
      confirmLabel="Remove member"
      danger
      pending={remove.isPending}
      error={remove.error ? new Error(memberProblem(remove.error)) : null}
      onClose={onClose}
      onConfirm={() => remove.mutate(member.id, { onSuccess: onClose })}
    >
      <p>They can no longer sign in to this tenant in the console. They can be invited again later.</p>
    </ConfirmDialog>
  );
}
