import { InjectQueue, Process, Processor } from '@nestjs/bull';
import { BeforeApplicationShutdown, Inject, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { closeQueue, knownPayload, MAINTENANCE_QUEUE, PURGE_JOB, PurgeJob } from '@sesame/queue';
import type { Job, Queue } from 'bull';
import { MaintenanceReport, MaintenanceService } from './maintenance.service';

/**
 * Schedules the `purge` job as a Bull repeatable job every MAINTENANCE_INTERVAL_SECONDS (every
 * worker asks for the same schedule; Bull keeps one, and hands each repetition to one worker) and
 * runs it. A schedule with another interval, left by an earlier configuration, is removed.
 */
@Processor(MAINTENANCE_QUEUE)
export class MaintenanceProcessor implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MaintenanceProcessor.name);

  constructor(
    private readonly maintenance: MaintenanceService,
    @InjectQueue(MAINTENANCE_QUEUE) private readonly queue: Queue<PurgeJob>,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  /** Not awaited: a worker starts (and sends mail) even while Redis is unreachable. */
  onApplicationBootstrap(): void {
    void this.schedule().catch((error: Error) => this.logger.warn(`Could not schedule the maintenance job: ${error.message}`));
  }

  @Process(PURGE_JOB)
  async handle(job: Job<PurgeJob>): Promise<MaintenanceReport | null> {
    await knownPayload(job);
    return this.maintenance.run();
  }

  /** On SIGTERM: the run in progress stops after its batch (or at once in a pause), and closeQueue waits for it. */
  async beforeApplicationShutdown(): Promise<void> {
    this.maintenance.stop();
    await closeQueue(this.queue);
  }

  private async schedule(): Promise<void> {
    const every = this.config.maintenance.intervalSeconds * 1000;
    for (const job of await this.queue.getRepeatableJobs()) {
      if (job.name === PURGE_JOB && Number(job.every) !== every) await this.queue.removeRepeatableByKey(job.key);
    }
    if (every > 0) await this.queue.add(PURGE_JOB, { version: 1 }, { repeat: { every } });
  }
}
