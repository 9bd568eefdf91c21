import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useCan, useMembership } from '../../api/session';
import { dateRangeError, endOfDay, startOfDay } from '../../components/date-filter';
import { DateTime } from '../../components/date-time';
import { DateRangeFields } from '../../components/date-range-fields';
import { fieldErrorsOf } from '../../components/field-errors';
import { PagedList } from '../../components/paged-list';
import { PageHeader } from '../../components/page-header';
import { EmptyState } from '../../components/states';
import { type AuditActorType, type AuditEvent, type AuditFilters, useAuditEvents } from './audit-log-queries';

const ACTOR_TYPES: { value: AuditActorType; label: string }[] = [
  { value: 'member', label: 'Member' },
  { value: 'api_key', label: 'API key' },
  { value: 'platform', label: 'Platform' },
  { value: 'sesame', label: 'Sesame' },
  // A user of an organization: their own passkey, registered on the hosted login page.
  { value: 'user', label: 'User' },
];

const TARGET_TYPES = [
  'tenant',
  'organization',
  'application',
  'user',
  'passkey',
  'api_key',
  'member',
  'webhook_endpoint',
  'webhook_delivery',
  'webhook_event',
];

const FILTER_NAMES = ['action', 'targetType', 'actorType', 'from', 'to'] as const;
type FilterValues = Record<(typeof FILTER_NAMES)[number], string>;
const NO_FILTERS: FilterValues = { action: '', targetType: '', actorType: '', from: '', to: '' };

function filtersOf(params: URLSearchParams): FilterValues {
  return Object.fromEntries(FILTER_NAMES.map((name) => [name, params.get(name) ?? ''])) as FilterValues;
}

function toQuery(values: FilterValues): AuditFilters {
  return {
    action: values.action || undefined,
    targetType: values.targetType || undefined,
    actorType: ACTOR_TYPES.find((type) => type.value === values.actorType)?.value,
    from: values.from ? startOfDay(values.from) : undefined,
    to: values.to ? endOfDay(values.to) : undefined,
  };
}

/** Who changed what in the tenant, newest first (admins and owners); the filters are in the URL. */
export function AuditLogPage() {
  const { tenantId } = useMembership();
  const canRead = useCan('admin');
  const [searchParams, setSearchParams] = useSearchParams();
  const values = filtersOf(searchParams);
  const rangeError = dateRangeError(values.from, values.to);
  const events = useAuditEvents(tenantId, toQuery(values), canRead && !rangeError);
  const filtered = FILTER_NAMES.some((name) => values[name]);

  const apply = (next: FilterValues) => {
    const params = new URLSearchParams();
    for (const name of FILTER_NAMES) if (next[name]) params.set(name, next[name]);
    setSearchParams(params);
  };

  return (
    <>
      <PageHeader title="Audit log" description="Every change made in this tenant, by whom, from where. Secrets are never recorded." />
      {!canRead ? (
        <EmptyState title="The audit log is for admins and owners">
          <p>Ask an owner of this tenant if you need to read it.</p>
        </EmptyState>
      ) : (
        <>
          <Filters key={searchParams.toString()} values={values} error={events.error} onApply={apply} />
          {!rangeError && (
            <PagedList query={events} empty={<EmptyState title={filtered ? 'No events match these filters' : 'No changes recorded yet'} />}>
              {(items) => (
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Time</th>
                      <th scope="col">Actor</th>
                      <th scope="col">Action</th>
                      <th scope="col">Target</th>
                      <th scope="col">Changes</th>
                      <th scope="col">Source address</th>
                      <th scope="col">Request id</th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((event) => (
                      <EventRow key={event.id} event={event} />
                    ))}
                  </tbody>
                </table>
              )}
            </PagedList>
          )}
        </>
      )}
    </>
  );
}

function EventRow({ event }: { event: AuditEvent }) {
  const actorType = ACTOR_TYPES.find((type) => type.value === event.actor.type)?.label ?? event.actor.type;
  return (
    <tr>
      <td>
        <DateTime value={event.createdAt} />
      </td>
      <td>
        <span className="badge">{actorType}</span> {event.actor.name ?? <span className="muted">—</span>}
      </td>
      <td>
        <code>{event.action}</code>
      </td>
      <td>
        {event.targetType}
        {event.targetId && (
          <div>
            <code className="muted id">{event.targetId}</code>
          </div>
        )}
      </td>
      <td>{event.changes ? <Changes changes={event.changes} /> : <span className="muted">—</span>}</td>
      <td>{event.ip ?? <span className="muted">—</span>}</td>
      <td>{event.requestId ? <code className="id">{event.requestId}</code> : <span className="muted">—</span>}</td>
    </tr>
  );
}

/** The fields a change sent, one a line: text as it is, anything else (lists, numbers, objects) as JSON. */
function Changes({ changes }: { changes: Record<string, unknown> }) {
  return (
    <dl className="changes">
      {Object.entries(changes).map(([field, value]) => (
        <div key={field}>
          <dt>
            <code>{field}</code>
          </dt>
          <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function Filters(props: { values: FilterValues; error: unknown; onApply: (values: FilterValues) => void }) {
  const [values, setValues] = useState(props.values);
  const serverErrors = fieldErrorsOf(props.error);
  const set = (name: keyof FilterValues) => (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value });
  const errorOf = (field: string) => serverErrors.get(field);

  return (
    <form
      className="filters"
      aria-label="Filter audit events"
      onSubmit={(event) => {
        event.preventDefault();
        props.onApply({ ...values, action: values.action.trim(), targetType: values.targetType.trim() });
      }}
    >
      <div className="field">
        <label htmlFor="audit-action">Action</label>
        <input
          id="audit-action"
          placeholder="organization.update"
          autoComplete="off"
          value={values.action}
          onChange={set('action')}
          aria-describedby="audit-action-error"
          aria-invalid={Boolean(errorOf('action'))}
        />
        <p id="audit-action-error" className="field-error">
          {errorOf('action')}
        </p>
      </div>
      <div className="field">
        <label htmlFor="audit-target-type">Target type</label>
        <input
          id="audit-target-type"
          list="audit-target-types"
          autoComplete="off"
          value={values.targetType}
          onChange={set('targetType')}
          aria-describedby="audit-target-type-error"
          aria-invalid={Boolean(errorOf('targetType'))}
        />
        <datalist id="audit-target-types">
          {TARGET_TYPES.map((type) => (
            <option key={type} value={type} />
          ))}
        </datalist>
        <p id="audit-target-type-error" className="field-error">
          {errorOf('targetType')}
        </p>
      </div>
      <div className="field">
        <label htmlFor="audit-actor-type">Actor type</label>
        <select id="audit-actor-type" value={values.actorType} onChange={set('actorType')}>
          <option value="">Anyone</option>
          {ACTOR_TYPES.map((type) => (
            <option key={type.value} value={type.value}>
              {type.label}
            </option>
          ))}
        </select>
      </div>
      <DateRangeFields idPrefix="audit" from={values.from} to={values.to} onChange={set} errorOf={errorOf} />
      <button type="submit" className="button button-primary">
        Apply filters
      </button>
      <button type="button" className="button" onClick={() => props.onApply(NO_FILTERS)}>
        Clear
      </button>
    </form>
  );
}
