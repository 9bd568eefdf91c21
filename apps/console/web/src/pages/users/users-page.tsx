import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useCan, useMembership } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DateTime } from '../../components/date-time';
import { PagedList } from '../../components/paged-list';
import { ProblemMessage } from '../../components/problem-message';
import { EmptyState } from '../../components/states';
import { type User, useDeleteUser, useSetUserBlocked, useUsers } from './user-queries';

/** The organization's users: search by address, block or unblock, delete (admins); each opens its own page (passkeys). */
export function UsersPage() {
  const { tenantId } = useMembership();
  const organizationId = useParams().organizationId!;
  const canEdit = useCan('admin');
  const [searchParams, setSearchParams] = useSearchParams();
  const email = searchParams.get('email') ?? '';
  const users = useUsers(tenantId, organizationId, email);
  const setBlocked = useSetUserBlocked(tenantId, organizationId);
  const [deleting, setDeleting] = useState<User | null>(null);

  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">Users</h2>
      <SearchForm key={email} email={email} onSearch={(value) => setSearchParams(value ? { email: value } : {}, { replace: true })} />
      <PagedList
        query={users}
        empty={
          <EmptyState title={email ? `No user with the address ${email}` : 'No users yet'}>
            {!email && <p>Users appear here once they sign in to one of the organization's applications, or when the API creates them.</p>}
          </EmptyState>
        }
      >
        {(items) => (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Name</th>
                <th scope="col">Verified</th>
                <th scope="col">Status</th>
                <th scope="col">Last login</th>
                <th scope="col">Created</th>
                {canEdit && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {items.map((user) => {
                const blockError = setBlocked.variables?.userId === user.id ? setBlocked.error : null;
                const busy = setBlocked.isPending && setBlocked.variables?.userId === user.id;
                return (
                  <tr key={user.id}>
                    <td>
                      <Link to={user.id}>{user.email}</Link>
                    </td>
                    <td>{user.name ?? <span className="muted">None</span>}</td>
                    <td>
                      {user.emailVerified ? <span className="badge badge-ok">Verified</span> : <span className="badge">Not verified</span>}
                    </td>
                    <td>
                      {user.blocked ? <span className="badge badge-danger">Blocked</span> : <span className="badge badge-ok">Active</span>}
                    </td>
                    <td>
                      <DateTime value={user.lastLoginAt} />
                    </td>
                    <td>
                      <DateTime value={user.createdAt} />
                    </td>
                    {canEdit && (
                      <td>
                        <div className="row-actions">
                          <button
                            type="button"
                            className="button button-small"
                            disabled={busy}
                            aria-label={`${user.blocked ? 'Unblock' : 'Block'} ${user.email}`}
                            onClick={() => setBlocked.mutate({ userId: user.id, blocked: !user.blocked })}
                          >
                            {user.blocked ? 'Unblock' : 'Block'}
                          </button>
                          <button
                            type="button"
                            className="button button-small button-danger"
                            aria-label={`Delete ${user.email}`}
                            onClick={() => setDeleting(user)}
                          >
                            Delete
                          </button>
                        </div>
                        <ProblemMessage error={blockError} />
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      </PagedList>
      {deleting && <DeleteUser tenantId={tenantId} organizationId={organizationId} user={deleting} onClose={() => setDeleting(null)} />}
    </section>
  );
}

function SearchForm({ email, onSearch }: { email: string; onSearch: (email: string) => void }) {
  const [value, setValue] = useState(email);
  return (
    <form
      className="filters"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        onSearch(value.trim());
      }}
    >
      <div className="field">
        <label htmlFor="user-search-email">E-mail</label>
        <input id="user-search-email" type="email" autoComplete="off" value={value} onChange={(event) => setValue(event.target.value)} />
      </div>
      <button type="submit" className="button">
        Search
      </button>
      {email && (
        <button type="button" className="button" onClick={() => onSearch('')}>
          Show all users
        </button>
      )}
    </form>
  );
}

function DeleteUser({
  tenantId,
  organizationId,
  user,
  onClose,
}: {
  tenantId: string;
  organizationId: string;
  user: User;
  onClose: () => void;
}) {
  const remove = useDeleteUser(tenantId, organizationId);
  return (
    <ConfirmDialog
      title={`Delete ${user.email}?`}
      confirmLabel="Delete user"
      danger
      pending={remove.isPending}
      error={remove.error}
      onClose={onClose}
      onConfirm={() => remove.mutate(user.id, { onSuccess: onClose })}
    >
      <p>The user is deleted from the organization. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
