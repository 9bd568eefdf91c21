/**
 * Runs `work` every `intervalMs`, one run at a time (a tick while a run is under way is skipped),
 * and stops so that a run under way finishes first: for the worker's background passes, which must
 * end before Postgres and Redis close. A run's failure goes to `onError`; the next tick tries again.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly onError: (error: Error) => void,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref();
  }

  /** No new run; resolves when the one under way (if any) has finished. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = this.work()
      .then(() => undefined)
      .catch((error: Error) => this.onError(error))
      .finally(() => (this.running = null));
    await this.running;
  }
}
