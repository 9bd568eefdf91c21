import { BatchingOptions, StatementBatcher } from './statement-batcher';

/**
 * Coalesces concurrent lookups by key into batches (the DataLoader pattern, made adaptive): the
 * batching of StatementBatcher, and a key asked for again while it waits to go out joins it.
 *
 * Only waiting keys are merged, never a key with a batch already out: that batch may have been
 * read before the caller asked, and a caller must not get an answer older than its question.
 */
export class LookupBatcher<K extends string, V> {
  /** Keys not yet sent, with the answer everyone who asked for them will get. */
  private readonly waiting = new Map<K, Promise<V | undefined>>();
  private readonly batches: StatementBatcher<K, V | undefined>;

  /**
   * @param lookup finds the values of the keys it is given; a key missing from its answer loads as undefined.
   */
  constructor(lookup: (keys: K[]) => Promise<Map<K, V>>, options: BatchingOptions) {
    this.batches = new StatementBatcher(async (keys) => {
      // From here on a new question about these keys needs a new read.
      for (const key of keys) this.waiting.delete(key);
      const found = await lookup(keys);
      return keys.map((key) => found.get(key));
    }, options);
  }

  /** The value of `key`, or undefined when the lookup did not find it. Rejects when its batch fails. */
  load(key: K): Promise<V | undefined> {
    const waiting = this.waiting.get(key);
    if (waiting) return waiting;
    // Recorded before it is submitted: an idle batcher sends the key within submit(), and sending forgets it.
    let submitted!: (answer: Promise<V | undefined>) => void;
    const answer = new Promise<V | undefined>((resolve) => (submitted = resolve));
    this.waiting.set(key, answer);
    submitted(this.batches.submit(key));
    return answer;
  }
}
