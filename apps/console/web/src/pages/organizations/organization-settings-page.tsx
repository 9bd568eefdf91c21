import { useState } from 'react';
import { useNavigate, useOutletContext } from 'react-router';
import { useCan, useMembership } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { OrganizationForm } from './organization-form';
import { type Organization, useDeleteOrganization, useUpdateOrganization } from './organization-queries';

/** Edit the organization; delete it after typing its name. */
export function OrganizationSettingsPage() {
  const organization = useOutletContext<Organization>();
  const { tenantId } = useMembership();
  const canEdit = useCan('admin');
  const update = useUpdateOrganization(tenantId, organization.id);
  return (
    <>
      <section aria-labelledby="settings-heading">
        <h2 id="settings-heading">Settings</h2>
        <OrganizationForm
          key={organization.updatedAt}
          organization={organization}
          submitLabel="Save changes"
          pending={update.isPending}
          error={update.error}
          readOnly={!canEdit}
          onSubmit={(input) => update.mutate(input)}
        />
        {update.isSuccess && (
          <p className="notice" role="status">
            Saved.
          </p>
        )}
      </section>
      {canEdit && <DeleteOrganization tenantId={tenantId} organization={organization} />}
    </>
  );
}

function DeleteOrganization({ tenantId, organization }: { tenantId: string; organization: Organization }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteOrganization(tenantId, organization.id);
  const navigate = useNavigate();
  return (
    <section className="danger-zone" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete this organization</h2>
      <p>Its users, applications and API keys are deleted with it. Applications stop signing anyone in.</p>
      <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
        Delete organization
      </button>
      {confirming && (
        <ConfirmDialog
          title={`Delete ${organization.name}?`}
          confirmLabel="Delete organization"
          typedConfirmation={organization.name}
          danger
          pending={remove.isPending}
          error={remove.error}
          onClose={() => setConfirming(false)}
          onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate(`/t/${tenantId}/organizations`, { replace: true }) })}
        >
          <p>This cannot be undone.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
