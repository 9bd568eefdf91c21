import { useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useMembership } from '../../api/session';
import { dateRangeError, endOfDay, startOfDay } from '../../components/date-filter';
import { DateTime } from '../../components/date-time';
import { DateRangeFields } from '../../components/date-range-fields';
import { fieldErrorsOf } from '../../components/field-errors';
import { PagedList } from '../../components/paged-list';
import { EmptyState } from '../../components/states';
import {
  type LoginActivityFilters,
  type LoginAttempt,
  type LoginAttemptStatus,
  useApplicationChoices,
  useLoginActivity,
} from './login-activity-queries';

const STATUSES: { value: LoginAttemptStatus; label: string }[] = [
  { value: 'pending', label: 'Pending' },
  { value: 'approved', label: 'Approved' },
  { value: 'completed', label: 'Completed' },
  { value: 'expired', label: 'Expired' },
  { value: 'locked', label: 'Locked' },
];

const FILTER_NAMES = ['email', 'application', 'status', 'from', 'to'] as const;
type FilterValues = Record<(typeof FILTER_NAMES)[number], string>;

function filtersOf(params: URLSearchParams): FilterValues {
  return Object.fromEntries(FILTER_NAMES.map((name) => [name, params.get(name) ?? ''])) as FilterValues;
}

function toQuery(values: FilterValues): LoginActivityFilters {
  const status = STATUSES.find((candidate) => candidate.value === values.status)?.value;
  return {
    email: values.email || undefined,
    applicationId: values.application || undefined,
    status,
    from: values.from ? startOfDay(values.from) : undefined,
    to: values.to ? endOfDay(values.to) : undefined,
  };
}

/** The organization's login attempts, newest first; the filters are in the URL, so a filtered view can be shared. */
export function LoginActivityPage() {
  const { tenantId } = useMembership();
  const organizationId = useParams().organizationId!;
  const [searchParams, setSearchParams] = useSearchParams();
  const values = filtersOf(searchParams);
  const rangeError = dateRangeError(values.from, values.to);
  const attempts = useLoginActivity(tenantId, organizationId, toQuery(values), !rangeError);
  const filtered = FILTER_NAMES.some((name) => values[name]);

  const apply = (next: FilterValues) => {
    const params = new URLSearchParams();
    for (const name of FILTER_NAMES) if (next[name]) params.set(name, next[name]);
    setSearchParams(params);
  };

  return (
    <section aria-labelledby="login-activity-heading">
      <h2 id="login-activity-heading">Login activity</h2>
      <p className="muted">Every login attempt of the organization's applications, newest first, with what became of its login e-mail.</p>
      <Filters
        key={searchParams.toString()}
        tenantId={tenantId}
        organizationId={organizationId}
        values={values}
        error={attempts.error}
        onApply={apply}
      />
      {!rangeError && (
        <PagedList
          query={attempts}
          empty={<EmptyState title={filtered ? 'No login attempts match these filters' : 'No login attempts yet'} />}
        >
          {(items) => (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">Application</th>
                  <th scope="col">Status</th>
                  <th scope="col">E-mail delivery</th>
                </tr>
              </thead>
              <tbody>
                {items.map((attempt) => (
                  <tr key={attempt.id} className={attempt.mail === 'failed' ? 'failed' : undefined}>
                    <td>
                      <DateTime value={attempt.createdAt} />
                    </td>
                    <td>{attempt.email}</td>
                    <td>{attempt.applicationName}</td>
                    <td>
                      <StatusBadge attempt={attempt} />
                    </td>
                    <td>
                      <Delivery attempt={attempt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </PagedList>
      )}
    </section>
  );
}

function Filters(props: {
  tenantId: string;
  organizationId: string;
  values: FilterValues;
  error: unknown;
  onApply: (values: FilterValues) => void;
}) {
  const [values, setValues] = useState(props.values);
  const applications = useApplicationChoices(props.tenantId, props.organizationId);
  const serverErrors = fieldErrorsOf(props.error);
  const set = (name: keyof FilterValues) => (event: { target: { value: string } }) => setValues({ ...values, [name]: event.target.value });
  const errorOf = (field: string) => serverErrors.get(field);

  return (
    <form
      className="filters"
      aria-label="Filter login attempts"
      onSubmit={(event) => {
        event.preventDefault();
        props.onApply({ ...values, email: values.email.trim() });
      }}
    >
      <div className="field">
        <label htmlFor="activity-email">E-mail</label>
        <input
          id="activity-email"
          type="email"
          autoComplete="off"
          value={values.email}
          onChange={set('email')}
          aria-describedby="activity-email-error"
          aria-invalid={Boolean(errorOf('email'))}
        />
        <p id="activity-email-error" className="field-error">
          {errorOf('email')}
        </p>
      </div>
      <div className="field">
        <label htmlFor="activity-application">Application</label>
        <select
          id="activity-application"
          value={values.application}
          onChange={set('application')}
          aria-describedby="activity-application-error"
        >
          <option value="">All applications</option>
          {applications.data?.map((application) => (
            <option key={application.id} value={application.id}>
              {application.name}
            </option>
          ))}
        </select>
        <p id="activity-application-error" className="field-error">
          {applications.isError ? 'The applications could not be loaded.' : errorOf('applicationId')}
        </p>
      </div>
      <div className="field">
        <label htmlFor="activity-status">Status</label>
        <select id="activity-status" value={values.status} onChange={set('status')}>
          <option value="">Any status</option>
          {STATUSES.map((status) => (
            <option key={status.value} value={status.value}>
              {status.label}
            </option>
          ))}
        </select>
      </div>
      <DateRangeFields idPrefix="activity" from={values.from} to={values.to} onChange={set} errorOf={errorOf} />
      <button type="submit" className="button button-primary">
        Apply filters
      </button>
      <button type="button" className="button" onClick={() => props.onApply({ email: '', application: '', status: '', from: '', to: '' })}>
        Clear
      </button>
    </form>
  );
}

const STATUS_BADGES: Record<LoginAttemptStatus, string> = {
  pending: 'badge',
  approved: 'badge',
  completed: 'badge badge-ok',
  expired: 'badge badge-warn',
  locked: 'badge badge-danger',
};

function StatusBadge({ attempt }: { attempt: LoginAttempt }) {
  const label = STATUSES.find((status) => status.value === attempt.status)?.label ?? attempt.status;
  return (
    <>
      <span className={STATUS_BADGES[attempt.status]}>{label}</span>
      {attempt.completedAt && (
        <div className="muted">
          Used <DateTime value={attempt.completedAt} />
        </div>
      )}
    </>
  );
}

/** What became of the login e-mail; a failed delivery stands out. */
function Delivery({ attempt }: { attempt: LoginAttempt }) {
  switch (attempt.mail) {
    case 'failed':
      return (
        <>
          <span className="badge badge-danger">Failed</span>
          <div className="muted">
            Given up <DateTime value={attempt.mailFailedAt} never="—" />
          </div>
        </>
      );
    case 'sent':
      return (
        <>
          <span className="badge badge-ok">Sent</span>
          <div className="muted">
            <DateTime value={attempt.mailSentAt} never="—" />
          </div>
        </>
      );
    case 'queued':
      return (
        <>
          <span className="badge badge-warn">Queued</span>
          <div className="muted">
            Since <DateTime value={attempt.mailQueuedAt} never="—" />
          </div>
        </>
      );
    case 'not_queued':
      return <span className="badge">Not queued yet</span>;
    case 'suppressed':
      return (
        <>
          <span className="badge">Suppressed</span>
          <div className="muted">Blocked user: no e-mail is sent</div>
        </>
      );
  }
}
