export interface BatchingOptions {
  /** Batches that may be out at once; an item submitted while this many are out waits for the next batch. */
  maxInFlight: number;
  /** At most this many items go out in one batch. */
  maxBatch: number;
}

interface Waiting<I, O> {
  item: I;
  resolve(answer: O): void;
  reject(error: unknown): void;
}

/**
 * Runs concurrent requests' statements in batches, adaptively: while fewer than `maxInFlight`
 * batches are out, an item goes out at once and alone, so light load pays no added latency; beyond
 * that, items wait, and each time a batch completes the waiting ones go out together, oldest first.
 * Under load, one round trip then serves many requests, which saves the per-statement cost of the
 * driver and the database. Every item gets its own answer: nothing is merged (LookupBatcher merges
 * reads of the same key).
 */
export class StatementBatcher<I, O> {
  private waiting: Waiting<I, O>[] = [];
  private inFlight = 0;

  /**
   * @param run runs the items of one batch and answers them in the same order.
   */
  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly options: BatchingOptions,
  ) {
    // Either below 1 would leave items waiting for ever, or send empty batches without end.
    if (options.maxInFlight < 1 || options.maxBatch < 1) throw new RangeError('maxInFlight and maxBatch must be at least 1');
  }

  /** The item's answer; rejects when its batch fails. */
  submit(item: I): Promise<O> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      void this.send(this.waiting.splice(0, this.options.maxBatch));
    }
  }

  /** Never rejects: a failure goes to this batch's callers only, and the items waiting behind it still go out. */
  private async send(batch: Waiting<I, O>[]): Promise<void> {
    this.inFlight += 1;
    try {
      // Called before the first await, so an idle batcher starts the statement within submit() itself.
      const answers = await this.run(batch.map((waiting) => waiting.item));
      batch.forEach((waiting, index) => waiting.resolve(answers[index]));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      this.inFlight -= 1;
      this.dispatch();
    }
  }
}
