import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { Clock, PeriodicTask, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { LoginAttemptRepository } from '@sesame/entities';
import { MailProducer } from '@sesame/queue';

/** An attempt still unsent this long after it was created is considered lost and queued again. */
const GRACE_SECONDS = 30;
/** Attempts queued again per pass, oldest first. */
const BATCH = 500;

/**
 * Makes sure no accepted login attempt loses its e-mail: attempts whose mail was never queued
 * (auth-api stopped in between) or was lost with Redis are queued again while their link is
 * still valid; an attempt whose job still exists (waiting, retrying or kept as failed) is left alone.
 * It also retires expired attempts, which frees their sentences and erases their sealed tokens.
 */
@Injectable()
export class MailSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MailSweeper.name);
  private readonly task = new PeriodicTask(
    () => this.sweep(),
    (error) => this.logger.warn(`Sweep failed: ${error.message}`),
  );

  constructor(
    private readonly attempts: LoginAttemptRepository,
    private readonly producer: MailProducer,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.config.mail.sweepIntervalSeconds * 1000);
  }

  /** Before Postgres and Redis close: no new sweep, and the one under way finishes. */
  beforeApplicationShutdown(): Promise<void> {
    return this.task.stop();
  }

  /** One pass; returns how many attempts were queued again. */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    await this.attempts.expireOverdue(now);
    const unsent = await this.attempts.findUnsent(now, new Date(now.getTime() - GRACE_SECONDS * 1000), BATCH);
    let requeued = 0;
    for (const attempt of unsent) {
      if (!(await this.producer.requeueIfLost(attempt.id, attempt.requestId))) continue;
      await this.attempts.markRequeued(attempt.id, now);
      requeued += 1;
    }
    if (requeued > 0) this.logger.log(`Queued ${requeued} lost login e-mail(s) again`);
    return requeued;
  }
}
