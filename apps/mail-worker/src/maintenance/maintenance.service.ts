import { InjectQueue } from '@nestjs/bull';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { Clock, SESAME_CONFIG, SesameConfig, SesameMetrics } from '@sesame/common';
import { EmailThrottleRepository, LoginAttemptRepository } from '@sesame/entities';
import { MAIL_QUEUE } from '@sesame/queue';
import type { Queue } from 'bull';
import { AccessTokenRepository } from './access-token.repository';
import { AuditEventRepository } from './audit-event.repository';
import { AuthorizationCodeRepository } from './authorization-code.repository';
import { MaintenanceLease, MaintenanceLock } from './maintenance-lock';

const DAY_MS = 24 * 3600 * 1000;

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
 * time. Retention periods are in the configuration; see docs/operations.md.
 */
@Injectable()
export class MaintenanceService {
  private readonly logger = new Logger(MaintenanceService.name);
  private stopping = false;

  constructor(
    private readonly lock: MaintenanceLock,
    private readonly codes: AuthorizationCodeRepository,
    private readonly tokens: AccessTokenRepository,
    private readonly attempts: LoginAttemptRepository,
    private readonly throttles: EmailThrottleRepository,
    private readonly auditEvents: AuditEventRepository,
    @InjectQueue(MAIL_QUEUE) private readonly mailQueue: Queue,
    private readonly clock: Clock,
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

  /** On shutdown: the run in progress stops after its current batch. */
  stop(): void {
    this.stopping = true;
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
      { table: 'mail_job', batch: async (limit) => (await this.mailQueue.clean(retention.loginActivityRetentionDays * DAY_MS, 'failed', limit)).length },
      { table: 'email_throttle', batch: (limit) => this.throttles.deleteIdleSince(ago(retention.emailThrottleRetentionDays), limit) },
      { table: 'audit_event', batch: (limit) => this.auditEvents.deleteCreatedBefore(ago(retention.auditRetentionDays), limit) },
    ];
  }

  /** Batches until one comes back short; the lease is extended before each, and a lost lease ends the run. */
  private async drain(step: PurgeStep, lease: MaintenanceLease): Promise<number> {
    const limit = this.config.maintenance.batchSize;
    let total = 0;
    for (;;) {
      if (this.stopping) return total;
      if (!(await lease.extend())) throw new Error('The maintenance lock was lost (a batch took longer than the lease)');
      const removed = await step.batch(limit);
      total += removed;
      this.metrics?.maintenanceRowsDeleted.inc({ table: step.table }, removed);
      if (removed < limit) return total;
    }
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
