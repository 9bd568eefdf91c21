import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { describeError, isProblem } from '../../api/problem';
import { fieldErrorsOf } from '../../components/field-errors';
import { EVENT_TYPES, eventTypeWords } from './event-types';
import type { NewWebhookEndpoint, WebhookEndpoint, WebhookEventType } from './webhook-queries';

interface FormValues {
  url: string;
  description: string;
  /** Every event type (also those added later), or only the ones checked. */
  scope: 'all' | 'some';
  eventTypes: WebhookEventType[];
  organizationId: string;
}

export interface EndpointFormProps {
  /** The endpoint to edit; none: a new one. */
  endpoint?: WebhookEndpoint;
  /** The organizations a new endpoint may be limited to (not offered when editing: the API keeps it). */
  organizations?: { id: string; name: string }[];
  pending: boolean;
  error: unknown;
  onSubmit: (input: NewWebhookEndpoint) => void;
  onCancel: () => void;
}

function toForm(endpoint?: WebhookEndpoint): FormValues {
  return {
    url: endpoint?.url ?? '',
    description: endpoint?.description ?? '',
    scope: endpoint && endpoint.eventTypes.length > 0 ? 'some' : 'all',
    eventTypes: endpoint?.eventTypes ?? [],
    organizationId: endpoint?.organizationId ?? '',
  };
}

/**
 * The URL, a description and the event types (all of them, or those checked) of an endpoint; a new
 * one may be limited to one organization's events. The API checks the URL (https, not an inward
 * address): its refusal shows under the URL.
 */
export function EndpointForm({ endpoint, organizations, pending, error, onSubmit, onCancel }: EndpointFormProps) {
  const form = useForm<FormValues>({ defaultValues: toForm(endpoint) });
  const scope = form.watch('scope');
  // The API's word on the URL holds for the URL it was sent, not for the one typed since.
  const [sentUrl, setSentUrl] = useState<string | null>(null);
  const urlUnchanged = form.watch('url').trim() === sentUrl;
  const serverErrors = fieldErrorsOf(error);
  const urlError = form.formState.errors.url
    ? 'Enter the https URL that receives the events.'
    : !urlUnchanged
      ? undefined
      : isProblem(error, 'webhook_url_not_allowed')
        ? urlRefusal(describeError(error))
        : serverErrors.get('url');
  const typesError = form.formState.errors.eventTypes ? 'Check at least one event, or choose All events.' : serverErrors.get('eventTypes');
  const shownByField = isProblem(error, 'webhook_url_not_allowed') || Boolean(urlError || typesError || serverErrors.size > 0);
  const headingId = endpoint ? 'edit-endpoint-heading' : 'new-endpoint-heading';

  return (
    <form
      className="card form"
      noValidate
      aria-labelledby={headingId}
      onSubmit={form.handleSubmit((values) => {
        const description = values.description.trim();
        setSentUrl(values.url.trim());
        onSubmit({
          url: values.url.trim(),
          ...(description || endpoint?.description ? { description } : {}),
          eventTypes: values.scope === 'all' ? [] : values.eventTypes,
          ...(!endpoint && values.organizationId ? { organizationId: values.organizationId } : {}),
        });
      })}
    >
      <h2 id={headingId}>{endpoint ? 'Edit the endpoint' : 'Add an endpoint'}</h2>
      <div className="field">
        <label htmlFor="webhook-url">URL</label>
        <input
          id="webhook-url"
          type="url"
          autoComplete="off"
          placeholder="https://api.example.com/sesame-webhooks"
          aria-invalid={Boolean(urlError)}
          aria-describedby="webhook-url-hint webhook-url-error"
          {...form.register('url', { validate: (value) => value.trim() !== '' })}
        />
        <p id="webhook-url-hint" className="hint">
          https, on a public address. Sesame POSTs each event there, signed.
        </p>
        <p id="webhook-url-error" className="field-error">
          {urlError}
        </p>
      </div>
      <div className="field">
        <label htmlFor="webhook-description">Description (optional)</label>
        <input
          id="webhook-description"
          autoComplete="off"
          placeholder="Creates accounts in our CRM"
          aria-invalid={Boolean(serverErrors.get('description'))}
          aria-describedby="webhook-description-error"
          {...form.register('description')}
        />
        <p id="webhook-description-error" className="field-error">
          {serverErrors.get('description')}
        </p>
      </div>
      {!endpoint && organizations && organizations.length > 0 && (
        <div className="field">
          <label htmlFor="webhook-organization">Events of</label>
          <select id="webhook-organization" aria-describedby="webhook-organization-hint" {...form.register('organizationId')}>
            <option value="">The whole tenant</option>
            {organizations.map((organization) => (
              <option key={organization.id} value={organization.id}>
                {organization.name} only
              </option>
            ))}
          </select>
          <p id="webhook-organization-hint" className="hint">
            An organization’s endpoint gets only that organization’s events: no member events, no tenant keys’ events.
          </p>
        </div>
      )}
      <fieldset className="field" aria-describedby="webhook-types-error">
        <legend>Events</legend>
        <div className="field checkbox">
          <input id="webhook-scope-all" type="radio" value="all" {...form.register('scope')} />
          <label htmlFor="webhook-scope-all">All events, including types added later</label>
        </div>
        <div className="field checkbox">
          <input id="webhook-scope-some" type="radio" value="some" {...form.register('scope')} />
          <label htmlFor="webhook-scope-some">Only the events checked</label>
        </div>
        {scope === 'some' && (
          <ul className="event-types" aria-label="Event types">
            {EVENT_TYPES.map((type) => (
              <li key={type} className="field checkbox">
                <input
                  id={`webhook-type-${type}`}
                  type="checkbox"
                  value={type}
                  {...form.register('eventTypes', { validate: (types) => form.getValues('scope') === 'all' || types.length > 0 })}
                />
                <label htmlFor={`webhook-type-${type}`}>
                  <code>{type}</code> <span className="muted">{eventTypeWords(type)}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
        <p id="webhook-types-error" className="field-error">
          {typesError}
        </p>
      </fieldset>
      {!shownByField && error ? (
        <p className="problem" role="alert">
          {describeError(error)}
        </p>
      ) : null}
      <div className="row-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? 'Saving…' : endpoint ? 'Save changes' : 'Add endpoint'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The API's "url must use https" reads "Must use https" under the URL, as the field errors of a validation do. */
function urlRefusal(detail: string): string {
  if (!detail.startsWith('url ')) return detail;
  return detail.charAt(4).toUpperCase() + detail.slice(5);
}
