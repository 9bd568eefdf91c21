import { useId } from 'react';
import { itemsOf } from '../../api/pages';
import { isProblem } from '../../api/problem';
import { useCan } from '../../api/session';
import { CopyButton } from '../../components/copy-button';
import { DateTime } from '../../components/date-time';
import { PagedList } from '../../components/paged-list';
import { ProblemMessage } from '../../components/problem-message';
import { EmptyState } from '../../components/states';
import { DeliveryStatus } from './endpoint-status';
import { DELIVERY_POLL_MS, useRedeliver, useWebhookDeliveries, type WebhookAttempt, type WebhookDelivery } from './webhook-queries';

export interface DeliveryListProps {
  tenantId: string;
  endpointId: string;
  /** A test event just sent: the list is read again until its delivery shows. */
  awaitedEventId: string | null;
}

/**
 * The endpoint's deliveries, newest first: status, tries, the last answer; opened, the exact request
 * body and every try (status, duration, the answer's first kilobyte or the connection error).
 * Admins and owners redeliver a finished one. Read again every 2 s while one is on its way.
 */
export function DeliveryList({ tenantId, endpointId, awaitedEventId }: DeliveryListProps) {
  const deliveries = useWebhookDeliveries(tenantId, endpointId, awaitedEventId);
  const redeliver = useRedeliver(tenantId, endpointId);
  const canEdit = useCan('admin');
  const awaiting = awaitedEventId !== null && !itemsOf(deliveries.data).some((delivery) => delivery.eventId === awaitedEventId);
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Deliveries</h2>
      <p className="muted">
        Newest first. A delivery that fails is tried again, later each time; pending ones are read again every {DELIVERY_POLL_MS / 1000}{' '}
        seconds.
      </p>
      <div role="status">
        {awaiting && (
          <p className="notice">
            A <code>ping</code> event is on its way: its delivery shows here in a moment.
          </p>
        )}
      </div>
      <PagedList
        query={deliveries}
        empty={
          <EmptyState title="No deliveries yet">
            <p>Events that happen from now on show here{canEdit ? ', and so does a test event' : ''}.</p>
          </EmptyState>
        }
      >
        {(items) => (
          <ol className="deliveries">
            {items.map((delivery) => (
              <Delivery
                key={delivery.id}
                delivery={delivery}
                canRedeliver={canEdit}
                redelivering={redeliver.isPending && redeliver.variables === delivery.id}
                error={redeliver.variables === delivery.id ? redeliver.error : null}
                onRedeliver={() => redeliver.mutate(delivery.id)}
              />
            ))}
          </ol>
        )}
      </PagedList>
    </section>
  );
}

interface DeliveryProps {
  delivery: WebhookDelivery;
  canRedeliver: boolean;
  redelivering: boolean;
  error: unknown;
  onRedeliver: () => void;
}

function Delivery({ delivery, canRedeliver, redelivering, error, onRedeliver }: DeliveryProps) {
  const headingId = useId();
  const [last] = delivery.attemptLog;
  return (
    <li className="card delivery" aria-labelledby={headingId}>
      <div className="delivery-summary">
        <h3 id={headingId}>
          <code>{delivery.type}</code>
        </h3>
        <DeliveryStatus status={delivery.status} />
        <span>
          {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
        </span>
        {last && (
          <span className="muted">
            {last.responseStatus === null ? 'No answer' : `Last answer ${last.responseStatus}`} after {last.durationMs} ms
          </span>
        )}
        <span className="muted">
          <DateTime value={delivery.createdAt} seconds />
        </span>
        {canRedeliver && delivery.status !== 'pending' && (
          <button type="button" className="button button-small delivery-action" disabled={redelivering} onClick={onRedeliver}>
            {redelivering ? 'Redelivering…' : 'Redeliver'}
          </button>
        )}
      </div>
      {isProblem(error, 'webhook_delivery_pending') ? (
        <p className="problem" role="alert">
          This delivery is still pending: it will be tried on its schedule.
        </p>
      ) : (
        <ProblemMessage error={error} />
      )}
      <details>
        <summary>Request and answers</summary>
        <div className="section-header">
          <h4>Request body</h4>
          <CopyButton value={delivery.requestBody} label={`Copy the request body of ${delivery.type}`} />
        </div>
        <p className="hint">
          Event <code>{delivery.eventId}</code>, sent as <code>webhook-id</code>; the body is shown formatted, and sent as signed.
        </p>
        <pre className="snippet">
          <code>{formatted(delivery.requestBody)}</code>
        </pre>
        <h4>Attempts, newest first</h4>
        {delivery.attemptLog.length === 0 ? <p className="muted">Not tried yet.</p> : <AttemptLog attempts={delivery.attemptLog} />}
      </details>
    </li>
  );
}

function AttemptLog({ attempts }: { attempts: WebhookAttempt[] }) {
  return (
    <table className="table attempts">
      <thead>
        <tr>
          <th scope="col">Tried</th>
          <th scope="col">Answer</th>
          <th scope="col">Duration</th>
          <th scope="col">What came back</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((attempt) => (
          <tr key={attempt.attemptedAt}>
            <td>
              <DateTime value={attempt.attemptedAt} seconds />
            </td>
            <td>
              {attempt.responseStatus === null ? (
                <span className="badge badge-danger">No answer</span>
              ) : (
                <span className={attempt.responseStatus >= 200 && attempt.responseStatus < 300 ? 'badge badge-ok' : 'badge badge-danger'}>
                  {attempt.responseStatus}
                </span>
              )}
            </td>
            <td>{attempt.durationMs} ms</td>
            <td>
              {attempt.error && <p className="attempt-error">{attempt.error}</p>}
              {attempt.responseExcerpt ? (
                <code className="excerpt">{attempt.responseExcerpt}</code>
              ) : (
                !attempt.error && <span className="muted">An empty answer</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The body as sent, indented for reading (as it is when it is not JSON). */
function formatted(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
