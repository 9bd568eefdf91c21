import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useCan, useMembership } from '../../api/session';
import { PagedList } from '../../components/paged-list';
import { PageHeader } from '../../components/page-header';
import { EmptyState } from '../../components/states';
import { OrganizationForm } from './organization-form';
import { useCreateOrganization, useOrganizations } from './organization-queries';

/** The tenant's organizations; admins create new ones here. */
export function OrganizationsPage() {
  const { tenantId } = useMembership();
  const canEdit = useCan('admin');
  const [creating, setCreating] = useState(false);
  const organizations = useOrganizations(tenantId);

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
      <PagedList
        query={organizations}
        empty={<EmptyState title="No organizations yet">{canEdit && <p>Create one to add applications and users.</p>}</EmptyState>}
      >
        {(items) => (
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
      </PagedList>
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
