import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useCan, useMembership } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { DateTime } from '../../components/date-time';
import { PageHeader } from '../../components/page-header';
import { ProblemMessage } from '../../components/problem-message';
import { QueryState } from '../../components/states';
import { useOrganization } from '../organizations/organization-queries';
import { DeliveryList } from './delivery-list';
import { EndpointForm } from './endpoint-form';
import { EndpointStatus } from './endpoint-status';
import { eventTypeWords } from './event-types';
import { SecretShownOnce } from './secret-shown-once';
import {
  useDeleteWebhookEndpoint,
  useRotateWebhookSecret,
  useSendTestEvent,
  useUpdateWebhookEndpoint,
  useWebhookEndpoint,
  type WebhookEndpoint,
} from './webhook-queries';

/** One endpoint: what it takes and where, its deliveries; admins and owners test, edit, switch, rotate and delete it. */
export function EndpointPage() {
  const { tenantId } = useMembership();
  const endpointId = useParams().endpointId!;
  const endpoint = useWebhookEndpoint(tenantId, endpointId);
  const canEdit = useCan('admin');
  const sendTest = useSendTestEvent(tenantId, endpointId);
  const [awaitedEventId, setAwaitedEventId] = useState<string | null>(null);

  return (
    <>
      <p className="breadcrumbs">
        <Link to={`/t/${tenantId}/webhooks`}>Webhooks</Link> / Endpoint
      </p>
      <PageHeader title="Webhook endpoint">
        {canEdit && endpoint.isSuccess && (
          <button
            type="button"
            className="button button-primary"
            disabled={sendTest.isPending || !endpoint.data.enabled}
            aria-describedby={endpoint.data.enabled ? undefined : 'test-event-note'}
            onClick={() => sendTest.mutate(undefined, { onSuccess: ({ eventId }) => setAwaitedEventId(eventId) })}
          >
            {sendTest.isPending ? 'Sending…' : 'Send test event'}
          </button>
        )}
      </PageHeader>
      {canEdit && endpoint.isSuccess && !endpoint.data.enabled && (
        <p id="test-event-note" className="muted">
          A disabled endpoint gets no events: enable it to send it a test event.
        </p>
      )}
      <ProblemMessage error={sendTest.error} />
      <QueryState query={endpoint}>
        {(data) => (
          <>
            <EndpointDetails tenantId={tenantId} endpoint={data} canEdit={canEdit} />
            <DeliveryList tenantId={tenantId} endpointId={endpointId} awaitedEventId={awaitedEventId} />
            {canEdit && <DeleteEndpoint tenantId={tenantId} endpoint={data} />}
          </>
        )}
      </QueryState>
    </>
  );
}

function EndpointDetails({ tenantId, endpoint, canEdit }: { tenantId: string; endpoint: WebhookEndpoint; canEdit: boolean }) {
  const [editing, setEditing] = useState(false);
  const edit = useUpdateWebhookEndpoint(tenantId, endpoint.id);
  if (editing)
    return (
      <EndpointForm
        endpoint={endpoint}
        pending={edit.isPending}
        error={edit.error}
        onCancel={() => {
          edit.reset();
          setEditing(false);
        }}
        onSubmit={({ url, description, eventTypes }) =>
          edit.mutate({ url, description, eventTypes }, { onSuccess: () => setEditing(false) })
        }
      />
    );
  return (
    <section className="card" aria-labelledby="endpoint-heading">
      <h2 id="endpoint-heading" className="visually-hidden">
        Endpoint
      </h2>
      <dl className="definition">
        <dt>URL</dt>
        <dd>
          <code>{endpoint.url}</code>
          <CopyButton value={endpoint.url} label="Copy the URL" />
        </dd>
        <dt>Description</dt>
        <dd>{endpoint.description || <span className="muted">None</span>}</dd>
        <dt>Events</dt>
        <dd>
          {endpoint.eventTypes.length === 0 ? (
            'All events, including types added later'
          ) : (
            <ul className="event-types">
              {endpoint.eventTypes.map((type) => (
                <li key={type}>
                  <code>{type}</code> <span className="muted">{eventTypeWords(type)}</span>
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Organization</dt>
        <dd>
          {endpoint.organizationId ? (
            <OrganizationName tenantId={tenantId} organizationId={endpoint.organizationId} />
          ) : (
            'All: the whole tenant'
          )}
        </dd>
        <dt>Status</dt>
        <dd>
          <EndpointStatus endpoint={endpoint} />
          {endpoint.disabledReason === 'failing' && (
            <span>
              Every try failed for days, so Sesame stopped sending. Fix the receiver, then enable it: the deliveries that waited are sent.
            </span>
          )}
          {!endpoint.enabled && endpoint.disabledReason === null && <span className="muted">Events wait until it is enabled again.</span>}
        </dd>
        <dt>Added</dt>
        <dd>
          <DateTime value={endpoint.createdAt} />
        </dd>
        <dt>Changed</dt>
        <dd>
          <DateTime value={endpoint.updatedAt} />
        </dd>
      </dl>
      {edit.isSuccess && (
        <p className="notice" role="status">
          Saved.
        </p>
      )}
      {canEdit && <EndpointActions tenantId={tenantId} endpoint={endpoint} onEdit={() => setEditing(true)} />}
    </section>
  );
}

function OrganizationName({ tenantId, organizationId }: { tenantId: string; organizationId: string }) {
  const organization = useOrganization(tenantId, organizationId);
  return <Link to={`/t/${tenantId}/organizations/${organizationId}`}>{organization.data?.name ?? 'Its organization'}</Link>;
}

/** Edit, Enable or Disable, Rotate secret (after a confirmation; the new secret is shown once). */
function EndpointActions({ tenantId, endpoint, onEdit }: { tenantId: string; endpoint: WebhookEndpoint; onEdit: () => void }) {
  const toggle = useUpdateWebhookEndpoint(tenantId, endpoint.id);
  const rotate = useRotateWebhookSecret(tenantId, endpoint.id);
  const [confirmingRotation, setConfirmingRotation] = useState(false);
  const [rotated, setRotated] = useState<{ secret: string; previousSecretExpiresAt: string } | null>(null);
  return (
    <>
      <div className="row-actions endpoint-actions">
        <button type="button" className="button" onClick={onEdit}>
          Edit
        </button>
        <button type="button" className="button" disabled={toggle.isPending} onClick={() => toggle.mutate({ enabled: !endpoint.enabled })}>
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" className="button" onClick={() => setConfirmingRotation(true)}>
          Rotate secret
        </button>
      </div>
      <ProblemMessage error={toggle.error} />
      {confirmingRotation && (
        <ConfirmDialog
          title="Rotate the signing secret?"
          confirmLabel="Rotate secret"
          danger
          pending={rotate.isPending}
          error={rotate.error}
          onClose={() => {
            rotate.reset();
            setConfirmingRotation(false);
          }}
          onConfirm={() =>
            rotate.mutate(undefined, {
              onSuccess: (answer) => {
                rotate.reset();
                setConfirmingRotation(false);
                setRotated(answer);
              },
            })
          }
        >
          <p>
            Your receiver needs the new secret. For a while (a day by default) deliveries are signed with both, so you can deploy the new
            one without losing a delivery.
          </p>
        </ConfirmDialog>
      )}
      {rotated && (
        <SecretShownOnce
          secret={rotated.secret}
          url={endpoint.url}
          previousSecretExpiresAt={rotated.previousSecretExpiresAt}
          onDismiss={() => setRotated(null)}
        />
      )}
    </>
  );
}

function DeleteEndpoint({ tenantId, endpoint }: { tenantId: string; endpoint: WebhookEndpoint }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteWebhookEndpoint(tenantId, endpoint.id);
  const navigate = useNavigate();
  return (
    <section className="danger-zone" aria-labelledby="delete-endpoint-heading">
      <h2 id="delete-endpoint-heading">Delete this endpoint</h2>
      <p>Sesame stops sending to it at once; its deliveries are deleted with it.</p>
      <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
        Delete endpoint
      </button>
      {confirming && (
        <ConfirmDialog
          title="Delete this endpoint?"
          confirmLabel="Delete endpoint"
          danger
          pending={remove.isPending}
          error={remove.error}
          onClose={() => setConfirming(false)}
          onConfirm={() => remove.mutate(undefined, { onSuccess: () => navigate(`/t/${tenantId}/webhooks`, { replace: true }) })}
        >
          <p>
            Events stop going to <code className="break">{endpoint.url}</code>, and its deliveries are gone. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
