import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Clock, SESAME_CONFIG, SesameConfig, SesameMetrics } from '@sesame/common';
import {
  AccessTokenRepository,
  AuditEventRepository,
  PasskeyChallengeRepository,
  AuthorizationCodeRepository,
  EmailThrottleRepository,
  LoginAttemptRepository,
  WebhookEventRepository,
} from '@sesame/entities';
import { MAIL_QUEUE } from '@sesame/queue';
import type { Queue } from 'bull';
import { LEASE_MS, MaintenanceLease, MaintenanceLock } from './maintenance-lock';
import { MaintenancePause } from './maintenance-pause';

const DAY_MS = 24 * 3600 * 1000;

/** The lease is extended just before a pause; half of it leaves the next extension ample time. */
const MAX_PAUSE_MS = LEASE_MS / 2;

/** What a run removed, per table (`mail_job`: failed mail jobs in Redis), and how long it took. */
export interface MaintenanceReport {
  removed: Record<string, number>;
  durationMs: number;
}

/** One kind of row to delete: the table it counts under, and one batch of at most `limit`. */
interface PurgeStep {
  table: string;
  batch(limit: number): Promise<number>;
}

/**
 * Deletes what is past its retention, in batches of MAINTENANCE_BATCH_SIZE rows, each its own
 * short statement and transaction (no long locks, rows in use are skipped), one instance at a
 * time. After a full batch it pauses MAINTENANCE_BATCH_PAUSE_PERCENT of the time the batch took
 * (pt-archiver's --sleep-coef), so back-to-back batches do not keep a Postgres backend busy all
 * the time. Retention periods are in the configuration; see docs/operations.md.
 */
@Injectable()
export class MaintenanceService {
  private readonly logger = new Logger(MaintenanceService.name);
  /** Aborted by stop(): ends a pause at once, and no batch starts after it. */
  private readonly stopped = new AbortController();

  constructor(
    private readonly lock: MaintenanceLock,
    private readonly codes: AuthorizationCodeRepository,
    private readonly tokens: AccessTokenRepository,
    private readonly attempts: LoginAttemptRepository,
    private readonly throttles: EmailThrottleRepository,
    private readonly auditEvents: AuditEventRepository,
    private readonly webhookEvents: WebhookEventRepository,
    private readonly passkeyChallenges: PasskeyChallengeRepository,
    @InjectQueue(MAIL_QUEUE) private readonly mailQueue: Queue,
    private readonly clock: Clock,
    private readonly pause: MaintenancePause,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
    @Optional() private readonly metrics?: SesameMetrics,
  ) {}

  /** One run; null when another instance is running (nothing is done then). */
  async run(): Promise<MaintenanceReport | null> {
    const lease = await this.lock.acquire();
    if (!lease) {
      this.metrics?.maintenanceRuns.inc({ outcome: 'skipped' });
      this.logger.log('Maintenance skipped: another instance is running it');
      return null;
    }
    const started = performance.now();
    try {
      const removed = await this.purge(lease);
      const report = { removed, durationMs: Math.round(performance.now() - started) };
      this.recordSuccess(report);
      return report;
    } catch (error) {
      this.metrics?.maintenanceRuns.inc({ outcome: 'failed' });
      throw error;
    } finally {
      await lease.release().catch(() => undefined);
    }
  }

  /** On shutdown: the run in progress stops after its current batch, or at once when it is pausing. */
  stop(): void {
    this.stopped.abort();
  }

  private async purge(lease: MaintenanceLease): Promise<Record<string, number>> {
    const removed: Record<string, number> = {};
    for (const step of this.steps(this.clock.now())) {
      removed[step.table] = (removed[step.table] ?? 0) + (await this.drain(step, lease));
    }
    return removed;
  }

  private steps(now: Date): PurgeStep[] {
    const retention = this.config.maintenance;
    const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const tokenLifetimeDays = this.config.auth.accessTokenTtlSeconds / (24 * 3600);
    return [
      { table: 'authorization_code', batch: (limit) => this.codes.deleteUnusedExpired(ago(retention.codeRetentionDays), limit) },
      {
        table: 'authorization_code',
        batch: (limit) => this.codes.deleteUsedWithoutLiveTokens(ago(retention.codeRetentionDays + tokenLifetimeDays), now, limit),
      },
      { table: 'access_token', batch: (limit) => this.tokens.deleteExpired(ago(retention.accessTokenRetentionDays), limit) },
      { table: 'access_token', batch: (limit) => this.tokens.deleteRevoked(ago(retention.accessTokenRetentionDays), limit) },
      { table: 'login_attempt', batch: (limit) => this.attempts.deleteCreatedBefore(ago(retention.loginActivityRetentionDays), limit) },
      // Jobs kept as failed name an attempt: they go with the login activity (Bull reads its own clock).
      {
        table: 'mail_job',
        batch: async (limit) => (await this.mailQueue.clean(retention.loginActivityRetentionDays * DAY_MS, 'failed', limit)).length,
      },
      {
        table: 'email_throttle',
        batch: (limit) =>
          this.throttles.deleteIdleSince(ago(retention.emailThrottleRetentionDays), ago(retention.loginActivityRetentionDays), limit),
      },
      { table: 'audit_event', batch: (limit) => this.auditEvents.deleteCreatedBefore(ago(retention.auditRetentionDays), limit) },
      { table: 'webhook_event', batch: (limit) => this.webhookEvents.deleteCreatedBefore(ago(retention.webhookRetentionDays), limit) },
      // Sign-in challenges (one per options request) go as soon as they expire: an expired one is never claimed.
      { table: 'passkey_challenge', batch: (limit) => this.passkeyChallenges.deleteExpiredSignInsBefore(now, limit) },
      // Registration offers live minutes; a day after they expire nothing reads them.
      { table: 'passkey_challenge', batch: (limit) => this.passkeyChallenges.deleteExpiredBefore(ago(retention.codeRetentionDays), limit) },
    ];
  }

  /**
   * Batches until one comes back short, with a pause after each full one; the lease is extended
   * before each batch and each pause, and a lost lease ends the run.
   */
  private async drain(step: PurgeStep, lease: MaintenanceLease): Promise<number> {
    const limit = this.config.maintenance.batchSize;
    let total = 0;
    for (;;) {
      if (this.stopped.signal.aborted) return total;
      await this.extend(lease);
      const started = performance.now();
      const removed = await step.batch(limit);
      total += removed;
      this.metrics?.maintenanceRowsDeleted.inc({ table: step.table }, removed);
      if (removed < limit) return total;
      await this.pauseAfter(performance.now() - started, lease);
    }
  }

  /** Leaves the database to the hot paths for a share of the time the batch held it. */
  private async pauseAfter(batchMs: number, lease: MaintenanceLease): Promise<void> {
    const ms = Math.min((batchMs * this.config.maintenance.batchPausePercent) / 100, MAX_PAUSE_MS);
    if (ms <= 0) return;
    await this.extend(lease);
    await this.pause.wait(ms, this.stopped.signal);
  }

  private async extend(lease: MaintenanceLease): Promise<void> {
    if (!(await lease.extend())) throw new Error('The maintenance lock was lost (a batch took longer than the lease)');
  }

  private recordSuccess(report: MaintenanceReport): void {
    this.metrics?.maintenanceRuns.inc({ outcome: 'completed' });
    this.metrics?.maintenanceDuration.observe(report.durationMs / 1000);
    this.metrics?.maintenanceLastSuccess.set(Date.now() / 1000);
    const counts = Object.entries(report.removed)
      .map(([table, count]) => `${table} ${count}`)
      .join(', ');
    this.logger.log(`Maintenance removed ${counts} in ${report.durationMs} ms`);
  }
}
