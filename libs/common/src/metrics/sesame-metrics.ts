import { Inject, Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { withTimeout } from '../async/with-timeout';

export interface MetricsOptions {
  /** The app's name, a label on every series (`app`). */
  app: string;
}

export const METRICS_OPTIONS = Symbol('METRICS_OPTIONS');

/** Why a login did not go through (the callback error codes, and refusals before a link is sent). */
export type LoginFailureReason =
  | 'too_early'
  | 'queue_unavailable'
  | 'login_link_expired'
  | 'login_link_used'
  | 'login_attempt_locked'
  | 'invalid_login_code'
  | 'login_code_disabled'
  | 'wrong_approval_number'
  | 'access_denied'
  | 'unknown_link';

/** A queue whose depth is read on each scrape (a Bull queue fits). */
export interface QueueDepthSource {
  name: string;
  getJobCounts(): Promise<object>;
}

/** How long a scrape waits for a queue's counts before leaving them out. */
const QUEUE_COUNT_TIMEOUT_MS = 1000;

/**
 * The app's Prometheus metrics, in a registry of its own (so apps sharing a process, as in the
 * tests, never mix): Node's default metrics plus Sesame's. Inject it `@Optional()` where a
 * counter moves, so code built without MetricsModule (unit tests, CLI contexts) still works.
 */
@Injectable()
export class SesameMetrics {
  readonly registry = new Registry();

  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency, by method, route (the matched route, not the raw URL; "unmatched" otherwise) and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'sesame_rate_limited_total',
    help: 'Requests refused with 429 by a rate limit, by limit (global, plan, endpoint) and the caller tenant\'s plan ("none" when the caller is not identified)',
    labelNames: ['scope', 'plan'] as const,
    registers: [this.registry],
  });

  readonly loginsStarted = new Counter({
    name: 'sesame_logins_started_total',
    help: 'Login links requested and accepted, by flow (direct: authenticate_direct; hosted: the hosted login page)',
    labelNames: ['flow'] as const,
    registers: [this.registry],
  });

  readonly loginsCompleted = new Counter({
    name: 'sesame_logins_completed_total',
    help: 'Login links used successfully (a code was issued or an autologin walk began)',
    registers: [this.registry],
  });

  readonly loginsFailed = new Counter({
    name: 'sesame_logins_failed_total',
    help: 'Logins that did not go through, by reason (too_early, queue_unavailable, login_link_expired, login_link_used, access_denied, unknown_link)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  readonly mailJobsQueued = new Counter({
    name: 'sesame_mail_jobs_queued_total',
    help: 'Mail jobs put on the queue (by auth-api, and again by the sweeper)',
    registers: [this.registry],
  });
  readonly mailJobsSent = new Counter({
    name: 'sesame_mail_jobs_sent_total',
    help: 'Mail jobs that sent their e-mail',
    registers: [this.registry],
  });
  readonly mailJobsSkipped = new Counter({
    name: 'sesame_mail_jobs_skipped_total',
    help: 'Mail jobs that had nothing to send (attempt no longer pending, already sent, or suppressed)',
    registers: [this.registry],
  });
  readonly mailJobsRetried = new Counter({
    name: 'sesame_mail_jobs_retried_total',
    help: 'Failed mail job attempts that will be retried',
    registers: [this.registry],
  });
  readonly mailJobsFailed = new Counter({
    name: 'sesame_mail_jobs_failed_total',
    help: 'Mail jobs that failed for good (all attempts used; kept as failed)',
    registers: [this.registry],
  });

  readonly maintenanceRowsDeleted = new Counter({
    name: 'sesame_maintenance_rows_deleted_total',
    help: 'Rows (and failed mail jobs) the maintenance job deleted past their retention, by table (mail_job for failed mail jobs)',
    labelNames: ['table'] as const,
    registers: [this.registry],
  });
  readonly maintenanceRuns = new Counter({
    name: 'sesame_maintenance_runs_total',
    help: 'Maintenance job runs, by outcome (completed; skipped: another instance was running; failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly maintenanceDuration = new Histogram({
    name: 'sesame_maintenance_run_duration_seconds',
    help: 'How long a completed maintenance run took',
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
    registers: [this.registry],
  });
  readonly maintenanceLastSuccess = new Gauge({
    name: 'sesame_maintenance_last_success_timestamp_seconds',
    help: 'When this instance last completed a maintenance run (Unix time)',
    registers: [this.registry],
  });

  private readonly queues = new Map<string, QueueDepthSource>();

  readonly queueJobs: Gauge<'queue' | 'state'>;

  constructor(@Inject(METRICS_OPTIONS) options: MetricsOptions) {
    this.registry.setDefaultLabels({ app: options.app });
    collectDefaultMetrics({ register: this.registry });
    const queues = this.queues;
    this.queueJobs = new Gauge({
      name: 'sesame_queue_jobs',
      help: 'Jobs in a queue by state (waiting, active, delayed, failed, completed, paused), read from Redis on each scrape',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        await Promise.all(
          [...queues.values()].map(async (queue) => {
            const counts = await withTimeout(queue.getJobCounts(), QUEUE_COUNT_TIMEOUT_MS).catch(() => null);
            for (const [state, count] of Object.entries(counts ?? {})) {
              if (typeof count === 'number') this.set({ queue: queue.name, state }, count);
            }
          }),
        );
      },
    });
  }

  /** Reports a queue's depth (`sesame_queue_jobs`) on every scrape. */
  watchQueue(queue: QueueDepthSource): void {
    this.queues.set(queue.name, queue);
  }

  /** The exposition text of every metric. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}
