import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Clock, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { MailProducer } from '@sesame/queue';
import { DataSource } from 'typeorm';

/** An attempt still unsent this long after it was created is considered lost and queued again. */
const GRACE_SECONDS = 30;

/**
 * Makes sure no accepted login attempt loses its e-mail: attempts whose mail was never queued
 * (auth-api stopped in between) or was lost with Redis are queued again while their link is
 * still valid; an attempt whose job still exists (waiting, retrying or kept as failed) is left alone.
 * It also retires expired attempts, which frees their sentences and erases their sealed tokens.
 */
@Injectable()
export class MailSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MailSweeper.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly producer: MailProducer,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.tick(), this.config.mail.sweepIntervalSeconds * 1000);
    this.timer.unref();
  }

  /** Before Postgres and Redis close: no new sweep, and the one under way finishes. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = this.sweep()
      .then(() => undefined)
      .catch((error: Error) => this.logger.warn(`Sweep failed: ${error.message}`))
      .finally(() => (this.running = null));
    await this.running;
  }

  /** One pass; returns how many attempts were queued again. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    await this.dataSource.query(
      `UPDATE login_attempt SET status = 'expired', link_token_encrypted = NULL WHERE status = 'pending' AND expires_at <= $1`,
      [now],
    );
    const unsent: { id: string; request_id: string | null }[] = await this.dataSource.query(
      `SELECT id, request_id FROM login_attempt
        WHERE status = 'pending' AND mail_sent_at IS NULL AND NOT mail_suppressed AND expires_at > $1 AND created_at < $2
        ORDER BY created_at LIMIT 500`,
      [now, new Date(now.getTime() - GRACE_SECONDS * 1000)],
    );
    let requeued = 0;
    for (const attempt of unsent) {
      if (!(await this.producer.requeueIfLost(attempt.id, attempt.request_id))) continue;
      await this.dataSource.query('UPDATE login_attempt SET mail_queued_at = $2 WHERE id = $1', [attempt.id, now]);
      requeued += 1;
    }
    if (requeued > 0) this.logger.log(`Queued ${requeued} lost login e-mail(s) again`);
    return requeued;
  }
}
