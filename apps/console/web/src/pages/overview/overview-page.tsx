import { lazy, Suspense, useState } from 'react';
import type { components } from '../../api/management-api';
import { useMembership } from '../../api/session';
import { DateTime } from '../../components/date-time';
import { PageHeader } from '../../components/page-header';
import { EmptyState, Loading, QueryState } from '../../components/states';
import { type HistoryRange, useRecentActivity, useTenantUsage, useUsageHistory } from './overview-queries';

const UsageChart = lazy(() => import('./usage-chart'));

type Window = components['schemas']['WindowUsageResponse'];

/** The tenant at a glance: plan and limits used now, the last 24 hours or 30 days, recent changes. */
export function OverviewPage() {
  const { tenantId, tenantName, role } = useMembership();
  return (
    <>
      <PageHeader title="Overview" description={tenantName} />
      <PlanUsage tenantId={tenantId} />
      <History tenantId={tenantId} />
      {role !== 'viewer' && <RecentActivity tenantId={tenantId} />}
    </>
  );
}

function PlanUsage({ tenantId }: { tenantId: string }) {
  const usage = useTenantUsage(tenantId);
  return (
    <section aria-labelledby="plan-heading">
      <h2 id="plan-heading">Plan and limits</h2>
      <QueryState query={usage}>
        {(data) => (
          <>
            <p>
              Plan <span className="badge">{data.plan}</span> — API requests of the tenant’s keys count against these limits.
            </p>
            <div className="grid">
              <WindowBar label="This minute" window={data.windows.minute} />
              <WindowBar label="This hour" window={data.windows.hour} />
              <WindowBar label="Today" window={data.windows.day} />
            </div>
          </>
        )}
      </QueryState>
    </section>
  );
}

function WindowBar({ label, window }: { label: string; window: Window }) {
  const share = window.limit > 0 ? Math.min(1, window.used / window.limit) : 0;
  return (
    <div className="card">
      <p>
        <strong>{label}</strong>: {window.used.toLocaleString()} of {window.limit.toLocaleString()}
      </p>
      <div
        className="bar"
        role="meter"
        aria-label={`${label}: requests used`}
        aria-valuemin={0}
        aria-valuemax={window.limit}
        aria-valuenow={window.used}
      >
        <span style={{ width: `${share * 100}%` }} />
      </div>
      <p className="muted">Resets in {window.resetSeconds} s</p>
    </div>
  );
}

function History({ tenantId }: { tenantId: string }) {
  const [range, setRange] = useState<HistoryRange>('24h');
  const history = useUsageHistory(tenantId, range);
  return (
    <section aria-labelledby="history-heading">
      <div className="section-header">
        <h2 id="history-heading">Requests, logins and mails</h2>
        <div role="group" aria-label="Period" className="actions">
          {(['24h', '30d'] as const).map((value) => (
            <button
              key={value}
              type="button"
              className={value === range ? 'button button-small button-primary' : 'button button-small'}
              aria-pressed={value === range}
              onClick={() => setRange(value)}
            >
              {value === '24h' ? 'Last 24 hours' : 'Last 30 days'}
            </button>
          ))}
        </div>
      </div>
      <QueryState query={history}>
        {(data) => (
          <div className="card">
            <p>
              {data.totals.apiRequests.toLocaleString()} API requests, {data.totals.memberRequests.toLocaleString()} console requests,{' '}
              {data.totals.logins.toLocaleString()} logins, {data.totals.mailsSent.toLocaleString()} mails sent,{' '}
              {data.totals.mailsFailed.toLocaleString()} failed.
            </p>
            <Suspense fallback={<Loading label="Loading the chart…" />}>
              <UsageChart history={data} />
            </Suspense>
          </div>
        )}
      </QueryState>
    </section>
  );
}

function RecentActivity({ tenantId }: { tenantId: string }) {
  const events = useRecentActivity(tenantId);
  return (
    <section aria-labelledby="activity-heading">
      <h2 id="activity-heading">Recent changes</h2>
      <QueryState query={events}>
        {(page) =>
          page.data.length === 0 ? (
            <EmptyState title="No changes yet" />
          ) : (
            <ul className="card activity">
              {page.data.map((event) => (
                <li key={event.id}>
                  <DateTime value={event.createdAt} /> — <strong>{event.actor.name ?? event.actor.type}</strong>{' '}
                  {event.action.replace('.', ' ')}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}
