/** A try under way this long is slow: its endpoint holds a slot for seconds, not milliseconds. */
export const SLOW_TRY_MS = 1000;

/** Gives a slot back (once, however often it is called). */
export type ReleaseSlot = () => void;

/**
 * Tries under way per tenant in this worker, at most `cap` each: one tenant's hanging endpoint holds
 * at most `cap` of the worker's slots, and the others go on serving every other tenant.
 *
 * A run that finds its tenant's slots taken waits for one while they are young: a fast endpoint
 * gives its slot back within milliseconds, and a run put back to the queue, only to be taken
 * again at once, would cost more than the try (a backlog of one tenant kept the worker busy moving
 * its jobs). Once the tenant's oldest try is slow (SLOW_TRY_MS), its runs are turned away at once,
 * to be put back: a hanging endpoint's runs do not hold slots waiting either.
 */
export class TenantSlots {
  /** When each try under way started, per tenant, oldest first. */
  private readonly underWay = new Map<string, number[]>();
  /** Runs waiting for a slot of the tenant, woken one by one as slots come back. */
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(
    private readonly cap: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A slot for the tenant's next try, or null when its slots are taken by a slow try. */
  async take(tenantId: string): Promise<ReleaseSlot | null> {
    for (;;) {
      const started = this.underWay.get(tenantId) ?? [];
      const now = this.now();
      if (started.length < this.cap) return this.occupy(tenantId, started, now);
      const untilSlow = started[0] + SLOW_TRY_MS - now;
      if (untilSlow <= 0) return null;
      await this.slotReturned(tenantId, untilSlow);
    }
  }

  private occupy(tenantId: string, started: number[], now: number): ReleaseSlot {
    started.push(now);
    this.underWay.set(tenantId, started);
    let released = false;
    return () => {
      if (!released) this.release(tenantId, now);
      released = true;
    };
  }

  private release(tenantId: string, startedAt: number): void {
    const started = this.underWay.get(tenantId)!;
    // Tries that started at the same moment are alike: which of them is taken out does not matter.
    started.splice(started.indexOf(startedAt), 1);
    if (started.length === 0) this.underWay.delete(tenantId);
    this.waiting.get(tenantId)?.shift()?.();
  }

  /** Resolves when a slot of the tenant comes back, or after `ms` (when its oldest try turns slow). */
  private slotReturned(tenantId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(tenantId) ?? [];
      const wake = () => {
        clearTimeout(timer);
        const index = queue.indexOf(wake);
        if (index >= 0) queue.splice(index, 1);
        if (queue.length === 0 && this.waiting.get(tenantId) === queue) this.waiting.delete(tenantId);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      queue.push(wake);
      this.waiting.set(tenantId, queue);
    });
  }
}
