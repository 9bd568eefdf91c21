import { useState } from 'react';
import { Link } from 'react-router';
import { itemsOf } from '../../api/pages';
import { useCan, useMembership } from '../../api/session';
import { DateTime } from '../../components/date-time';
import { PagedList } from '../../components/paged-list';
import { PageHeader } from '../../components/page-header';
import { EmptyState } from '../../components/states';
import { useOrganizations } from '../organizations/organization-queries';
import { EndpointForm } from './endpoint-form';
import { EndpointStatus } from './endpoint-status';
import { eventTypesSummary } from './event-types';
import { SecretShownOnce } from './secret-shown-once';
import { type CreatedWebhookEndpoint, useCreateWebhookEndpoint, useWebhookEndpoints } from './webhook-queries';

/** The tenant's webhook endpoints: where Sesame POSTs its events. Admins and owners add them (the secret is shown once). */
export function WebhooksPage() {
  const { tenantId } = useMembership();
  const canEdit = useCan('admin');
  const endpoints = useWebhookEndpoints(tenantId);
  const organizations = useOrganizations(tenantId);
  const organizationName = new Map(itemsOf(organizations.data).map((organization) => [organization.id, organization.name]));
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);

  return (
    <>
      <PageHeader title="Webhooks" description="Sesame POSTs signed events to these URLs as things happen: logins, users, members, keys.">
        {canEdit && !adding && (
          <button type="button" className="button button-primary" onClick={() => setAdding(true)}>
            Add endpoint
          </button>
        )}
      </PageHeader>
      {canEdit && adding && (
        <AddEndpoint
          tenantId={tenantId}
          organizations={itemsOf(organizations.data)}
          onAdded={(endpoint) => {
            setAdding(false);
            setCreated(endpoint);
          }}
          onCancel={() => setAdding(false)}
        />
      )}
      {created && <SecretShownOnce secret={created.secret} url={created.url} onDismiss={() => setCreated(null)} />}
      <PagedList
        query={endpoints}
        empty={
          <EmptyState title="No webhook endpoints yet">
            {canEdit && <p>Add one to have your back end told of logins, new users and other events as they happen.</p>}
          </EmptyState>
        }
      >
        {(items) => (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Organization</th>
                <th scope="col">Status</th>
                <th scope="col">Added</th>
              </tr>
            </thead>
            <tbody>
              {items.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td className="break">
                    <Link to={endpoint.id}>{endpoint.url}</Link>
                    {endpoint.description && <p className="role-note">{endpoint.description}</p>}
                  </td>
                  <td className="event-list">{eventTypesSummary(endpoint.eventTypes)}</td>
                  <td>
                    {endpoint.organizationId
                      ? (organizationName.get(endpoint.organizationId) ?? 'An organization')
                      : 'All: the whole tenant'}
                  </td>
                  <td>
                    <EndpointStatus endpoint={endpoint} />
                  </td>
                  <td>
                    <DateTime value={endpoint.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </PagedList>
    </>
  );
}

interface AddEndpointProps {
  tenantId: string;
  organizations: { id: string; name: string }[];
  onAdded: (endpoint: CreatedWebhookEndpoint) => void;
  onCancel: () => void;
}

function AddEndpoint({ tenantId, organizations, onAdded, onCancel }: AddEndpointProps) {
  const create = useCreateWebhookEndpoint(tenantId);
  return (
    <EndpointForm
      organizations={organizations}
      pending={create.isPending}
      error={create.error}
      onCancel={onCancel}
      onSubmit={(input) =>
        create.mutate(input, {
          onSuccess: (endpoint) => {
            // The secret lives only in the page's state: the mutation forgets it at once.
            create.reset();
            onAdded(endpoint);
          },
        })
      }
    />
  );
}
