export interface LookupBatcherOptions {
  /** Batches that may be out at once; a key asked for while this many are out waits for the next batch. */
  maxInFlight: number;
  /** At most this many distinct keys go out in one batch. */
  maxBatch: number;
}

interface Waiter<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

/**
 * Coalesces concurrent lookups by key into batches (the DataLoader pattern, made adaptive): while
 * fewer than `maxInFlight` batches are out, a key goes out at once and alone, so light load pays no
 * added latency; beyond that, keys wait, and each time a batch completes the waiting keys go out
 * together. Under load, one round trip then answers many requests, which saves the per-query cost
 * of the driver and the database; a key waits only for a batch already out to complete (for more
 * than one only when over `maxBatch` keys are waiting).
 *
 * Only waiting keys are merged, never a key with a batch already out: that batch may have been
 * read before the caller asked, and a caller must not get an answer older than its question.
 */
export class LookupBatcher<K extends string, V> {
  /** Keys not yet sent, each with everyone who asked for it. A Map keeps arrival order: the oldest go first. */
  private readonly waiting = new Map<K, Waiter<V>[]>();
  private inFlight = 0;

  /**
   * @param lookup finds the values of the keys it is given; a key missing from its answer loads as undefined.
   */
  constructor(
    private readonly lookup: (keys: K[]) => Promise<Map<K, V>>,
    private readonly options: LookupBatcherOptions,
  ) {
    // Either below 1 would leave keys waiting for ever, or send empty batches without end.
    if (options.maxInFlight < 1 || options.maxBatch < 1) throw new RangeError('maxInFlight and maxBatch must be at least 1');
  }

  /** The value of `key`, or undefined when the lookup did not find it. Rejects when its batch fails. */
  load(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else this.waiting.set(key, [{ resolve, reject }]);
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.size > 0) void this.send(this.takeBatch());
  }

  private takeBatch(): Map<K, Waiter<V>[]> {
    const batch = new Map<K, Waiter<V>[]>();
    for (const [key, waiters] of this.waiting) {
      if (batch.size === this.options.maxBatch) break;
      batch.set(key, waiters);
      this.waiting.delete(key);
    }
    return batch;
  }

  /** Never rejects: a failure goes to this batch's callers only, and the keys waiting behind it still go out. */
  private async send(batch: Map<K, Waiter<V>[]>): Promise<void> {
    this.inFlight += 1;
    try {
      // Called before the first await, so an idle batcher starts the lookup within load() itself.
      const found = await this.lookup([...batch.keys()]);
      for (const [key, waiters] of batch) for (const waiter of waiters) waiter.resolve(found.get(key));
    } catch (error) {
      for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
    } finally {
      this.inFlight -= 1;
      this.dispatch();
    }
  }
}
