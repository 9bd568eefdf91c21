import { useState } from 'react';
import type { components } from '../../api/management-api';
import { DateTime } from '../../components/date-time';
import { ProblemMessage } from '../../components/problem-message';
import type { Application } from './application-queries';
import { useLatestAttempt, useTryIt } from './integration-queries';

type Attempt = components['schemas']['LoginActivityResponse'];

const STATUS_WORDS: Record<Attempt['status'], string> = {
  pending: 'Waiting for the link to be opened',
  approved: 'Approved from another device',
  completed: 'Signed in: the integration works',
  expired: 'The link expired',
  locked: 'Locked after too many wrong codes',
};

const MAIL_WORDS: Record<Attempt['mail'], string> = {
  suppressed: 'Not sent (suppressed)',
  not_queued: 'Not queued yet',
  queued: 'Queued',
  sent: 'Sent',
  failed: 'Failed',
};

/**
 * Try it: a real login link for this application, sent to the member's own address, and that
 * attempt's status and e-mail delivery, live until it is over.
 */
export function TryIt({ tenantId, application, email }: { tenantId: string; application: Application; email: string }) {
  const tryIt = useTryIt(tenantId, application.organizationId, application.id);
  const [since, setSince] = useState<string | null>(null);
  const start = () => {
    // A minute of slack for clocks: the newest attempt of this address for the application is the try's.
    setSince(new Date(Date.now() - 60_000).toISOString());
    tryIt.mutate();
  };
  return (
    <section className="card" aria-labelledby="try-it-heading">
      <h3 id="try-it-heading">Try it</h3>
      <p>
        Sends a real login for this application to <strong>{email}</strong>, and follows it here.
      </p>
      <button type="button" className="button button-primary" disabled={tryIt.isPending} onClick={start}>
        {tryIt.isPending ? 'Sending…' : tryIt.isSuccess ? 'Try again' : 'Send me a login link'}
      </button>
      <ProblemMessage error={tryIt.error} />
      {tryIt.data && (
        <div className="try-it-result">
          {tryIt.data.mode === 'direct' ? (
            <>
              <p>
                Sesame e-mailed a login link. The e-mail and its page show:{' '}
                <strong data-testid="try-it-sentence">{tryIt.data.sentence}</strong>
              </p>
              <p>
                Opening it on your phone? Choose “Sign in on the device where you asked” there and type{' '}
                <strong data-testid="try-it-approval-number">{tryIt.data.approvalNumber}</strong>.
              </p>
            </>
          ) : (
            <p>
              This plan or type of application starts at the hosted login page, your address filled in:{' '}
              <a href={tryIt.data.hostedUrl!} target="_blank" rel="noopener noreferrer">
                open the hosted login page
              </a>
            </p>
          )}
          <p className="muted">After the link, the browser goes to {tryIt.data.redirectUri}.</p>
          {since && <AttemptStatus tenantId={tenantId} application={application} email={email} since={since} />}
        </div>
      )}
    </section>
  );
}

function AttemptStatus({
  tenantId,
  application,
  email,
  since,
}: {
  tenantId: string;
  application: Application;
  email: string;
  since: string;
}) {
  const attempt = useLatestAttempt(tenantId, application.organizationId, application.id, email, since);
  if (attempt.isError) return <ProblemMessage error={attempt.error} />;
  if (!attempt.data) return <p role="status">Waiting for the attempt…</p>;
  const { status, mail } = attempt.data;
  return (
    <dl className="definition" aria-live="polite" data-testid="try-it-status">
      <dt>Status</dt>
      <dd>
        <span
          className={
            status === 'completed'
              ? 'badge badge-ok'
              : status === 'pending' || status === 'approved'
                ? 'badge badge-warn'
                : 'badge badge-danger'
          }
        >
          {status}
        </span>
        {STATUS_WORDS[status]}
      </dd>
      <dt>E-mail</dt>
      <dd>
        <span className={mail === 'failed' ? 'badge badge-danger' : mail === 'sent' ? 'badge badge-ok' : 'badge'}>{MAIL_WORDS[mail]}</span>
        <DateTime value={attempt.data.mailSentAt ?? attempt.data.mailFailedAt ?? attempt.data.mailQueuedAt} never="" />
      </dd>
    </dl>
  );
}
