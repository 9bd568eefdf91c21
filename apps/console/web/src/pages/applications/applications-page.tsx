import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { useCan, useMembership } from '../../api/session';
import { fieldErrorsOf } from '../../components/field-errors';
import { PagedList } from '../../components/paged-list';
import { ProblemMessage } from '../../components/problem-message';
import { EmptyState } from '../../components/states';
import { type ApplicationType, useApplications, useCreateApplication } from './application-queries';
import { APPLICATION_TYPES, typeLabel } from './application-types';

/** The organization's applications; admins create one by type. */
export function ApplicationsPage() {
  const { tenantId } = useMembership();
  const organizationId = useParams().organizationId!;
  const canEdit = useCan('admin');
  const [creating, setCreating] = useState(false);
  const applications = useApplications(tenantId, organizationId);

  return (
    <section aria-labelledby="applications-heading">
      <div className="section-header">
        <h2 id="applications-heading">Applications</h2>
        {canEdit && !creating && (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            New application
          </button>
        )}
      </div>
      {creating && <NewApplication tenantId={tenantId} organizationId={organizationId} onCancel={() => setCreating(false)} />}
      <PagedList
        query={applications}
        empty={<EmptyState title="No applications yet">{canEdit && <p>Create one to get its client id and sign users in.</p>}</EmptyState>}
      >
        {(items) => (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Client id</th>
              </tr>
            </thead>
            <tbody>
              {items.map((application) => (
                <tr key={application.id}>
                  <td>
                    <Link to={application.id}>{application.name}</Link>
                  </td>
                  <td>{typeLabel(application.type)}</td>
                  <td className="mono">{application.clientId}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </PagedList>
    </section>
  );
}

function NewApplication({ tenantId, organizationId, onCancel }: { tenantId: string; organizationId: string; onCancel: () => void }) {
  const create = useCreateApplication(tenantId, organizationId);
  const navigate = useNavigate();
  const form = useForm<{ name: string; type: ApplicationType }>({ defaultValues: { name: '', type: 'web' } });
  const errors = fieldErrorsOf(create.error);
  return (
    <form
      className="card form"
      noValidate
      aria-label="New application"
      onSubmit={form.handleSubmit((values) =>
        create.mutate({ name: values.name.trim(), type: values.type }, { onSuccess: (application) => navigate(application.id) }),
      )}
    >
      <div className="field">
        <label htmlFor="application-name">Name</label>
        <input id="application-name" aria-describedby="application-name-error" {...form.register('name', { required: true })} />
        <p id="application-name-error" className="field-error">
          {form.formState.errors.name ? 'Give the application a name.' : errors.get('name')}
        </p>
      </div>
      <fieldset className="field">
        <legend>Type</legend>
        {APPLICATION_TYPES.map(({ type, label, needs }) => (
          <div key={type} className="field checkbox">
            <input id={`type-${type}`} type="radio" value={type} aria-describedby={`type-${type}-needs`} {...form.register('type')} />
            <label htmlFor={`type-${type}`}>
              <strong>{label}</strong> — <span id={`type-${type}-needs`}>{needs}</span>
            </label>
          </div>
        ))}
      </fieldset>
      {errors.size === 0 && <ProblemMessage error={create.error} />}
      <div className="actions">
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create application'}
        </button>
      </div>
    </form>
  );
}
