interface Waiting<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Calls that take one item each, made as few calls that take many: while a call is under way, the
 * items that come are gathered and go together when it ends (as Postgres groups commits). An item
 * that finds no call under way goes at once, alone, so an idle worker waits for nothing; a busy
 * one makes a statement per batch instead of one per delivery.
 */
export class BatchedCalls<T, R> {
  private readonly waiting: Waiting<T, R>[] = [];
  private running = false;

  constructor(
    /** Takes the items and answers one result per item, in their order. */
    private readonly call: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 100,
  ) {}

  run(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxBatch);
      try {
        const results = await this.call(batch.map((waiting) => waiting.item));
        batch.forEach((waiting, i) => waiting.resolve(results[i]));
      } catch (error) {
        batch.forEach((waiting) => waiting.reject(error));
      }
    }
    this.running = false;
  }
}
