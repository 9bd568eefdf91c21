import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useCan, useMembership } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DateTime } from '../../components/date-time';
import { EmptyState, QueryState } from '../../components/states';
import { type Passkey, type User, useRemovePasskey, useUser, useUserPasskeys } from './user-queries';

/** One user of the organization: their details and their passkeys, which admins may remove. */
export function UserPage() {
  const { tenantId } = useMembership();
  const { organizationId, userId } = useParams() as { organizationId: string; userId: string };
  const user = useUser(tenantId, organizationId, userId);
  return (
    <section aria-labelledby="user-heading">
      <p className="breadcrumbs">
        <Link to={`/t/${tenantId}/organizations/${organizationId}/users`}>Users</Link> / {user.data?.email ?? 'User'}
      </p>
      <QueryState query={user}>
        {(data) => (
          <>
            <UserDetails user={data} />
            <Passkeys tenantId={tenantId} user={data} />
          </>
        )}
      </QueryState>
    </section>
  );
}

function UserDetails({ user }: { user: User }) {
  return (
    <div className="card">
      <h2 id="user-heading">{user.email}</h2>
      <dl className="definition">
        <dt>Name</dt>
        <dd>{user.name ?? <span className="muted">None</span>}</dd>
        <dt>E-mail</dt>
        <dd>{user.emailVerified ? <span className="badge badge-ok">Verified</span> : <span className="badge">Not verified</span>}</dd>
        <dt>Status</dt>
        <dd>{user.blocked ? <span className="badge badge-danger">Blocked</span> : <span className="badge badge-ok">Active</span>}</dd>
        <dt>Last login</dt>
        <dd>
          <DateTime value={user.lastLoginAt} />
        </dd>
        <dt>Created</dt>
        <dd>
          <DateTime value={user.createdAt} />
        </dd>
      </dl>
    </div>
  );
}

/** In words a tenant's support desk can repeat to the user. */
const DEVICE_TYPES: Record<Passkey['deviceType'], string> = {
  multiDevice: 'Synced (multi-device)',
  singleDevice: 'This device only',
};

function Passkeys({ tenantId, user }: { tenantId: string; user: User }) {
  const passkeys = useUserPasskeys(tenantId, user.organizationId, user.id);
  // The API refuses viewers the removal; the page does not offer it to them.
  const canRemove = useCan('admin');
  const [removing, setRemoving] = useState<Passkey | null>(null);
  return (
    <section aria-labelledby="passkeys-heading">
      <h3 id="passkeys-heading">Passkeys</h3>
      <QueryState query={passkeys}>
        {(items) =>
          items.length === 0 ? (
            <EmptyState title="No passkeys">
              <p>The user can add one on the hosted login page after signing in with an e-mailed link.</p>
            </EmptyState>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Device type</th>
                  <th scope="col">Signs in on</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  {canRemove && <th scope="col">Actions</th>}
                </tr>
              </thead>
              <tbody>
                {items.map((passkey) => (
                  <tr key={passkey.id}>
                    <td>{passkey.name}</td>
                    <td>{DEVICE_TYPES[passkey.deviceType]}</td>
                    <td>{passkey.rpId ?? 'The hosted login page'}</td>
                    <td>
                      <DateTime value={passkey.createdAt} />
                    </td>
                    <td>
                      <DateTime value={passkey.lastUsedAt} />
                    </td>
                    {canRemove && (
                      <td>
                        <button
                          type="button"
                          className="button button-small button-danger"
                          aria-label={`Remove the passkey ${passkey.name}`}
                          onClick={() => setRemoving(passkey)}
                        >
                          Remove
                        </button>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryState>
      {removing && <RemovePasskey tenantId={tenantId} user={user} passkey={removing} onClose={() => setRemoving(null)} />}
    </section>
  );
}

function RemovePasskey({ tenantId, user, passkey, onClose }: { tenantId: string; user: User; passkey: Passkey; onClose: () => void }) {
  const remove = useRemovePasskey(tenantId, user.organizationId, user.id);
  return (
    <ConfirmDialog
      title={`Remove the passkey ${passkey.name}?`}
      confirmLabel="Remove passkey"
      danger
      pending={remove.isPending}
      error={remove.error}
      onClose={onClose}
      onConfirm={() => remove.mutate(passkey.id, { onSuccess: onClose })}
    >
      <p>
        It stops signing {user.email} in at once. They can still sign in with an e-mailed link, and add a passkey again after that. This
        cannot be undone.
      </p>
    </ConfirmDialog>
  );
}
