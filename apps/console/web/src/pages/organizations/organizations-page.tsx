import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { itemsOf } from '../../api/pages';
import { useCan, useMembership } from '../../api/session';
import { LoadMore } from '../../components/load-more';
import { PageHeader } from '../../components/page-header';
import { EmptyState, ErrorState, Loading } from '../../components/states';
import { OrganizationForm } from './organization-form';
import { useCreateOrganization, useOrganizations } from './organization-queries';

/** The tenant's organizations; admins create new ones here. */
export function OrganizationsPage() {
  const { tenantId } = useMembership();
  const canEdit = useCan('admin');
  const [creating, setCreating] = useState(false);
  const organizations = useOrganizations(tenantId);
  const items = itemsOf(organizations.data);

  return (
    <>
      <PageHeader title="Organizations" description="Each organization has its own users, applications, whitelist and keys.">
        {canEdit && !creating && (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            New organization
          </button>
        )}
      </PageHeader>
      {creating && <NewOrganization tenantId={tenantId} onCancel={() => setCreating(false)} />}
      {organizations.isPending ? (
        <Loading />
      ) : organizations.isError ? (
        <ErrorState error={organizations.error} retry={() => void organizations.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title="No organizations yet">{canEdit && <p>Create one to add applications and users.</p>}</EmptyState>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Whitelist domains</th>
              <th scope="col">Autologin</th>
            </tr>
          </thead>
          <tbody>
            {items.map((organization) => (
              <tr key={organization.id}>
                <td>
                  <Link to={organization.id}>{organization.name}</Link>
                </td>
                <td>{organization.whitelistDomains.join(', ') || <span className="muted">None</span>}</td>
                <td>{organization.autologin ? 'On' : 'Off'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <LoadMore query={organizations} />
    </>
  );
}

function NewOrganization({ tenantId, onCancel }: { tenantId: string; onCancel: () => void }) {
  const create = useCreateOrganization(tenantId);
  const navigate = useNavigate();
  return (
    <section aria-labelledby="new-organization">
      <div className="section-header">
        <h2 id="new-organization">New organization</h2>
        <button type="button" className="button button-small" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <OrganizationForm
        submitLabel="Create organization"
        pending={create.isPending}
        error={create.error}
        onSubmit={(input) => create.mutate(input, { onSuccess: (organization) => navigate(`${organization.id}/applications`) })}
      />
    </section>
  );
}
