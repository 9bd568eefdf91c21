/** What a lookup found, and until when (ms since the epoch) the cache may keep it. */
export interface Loaded<V> {
  value: V;
  /** Not kept when null or not after the lookup's `now` (e.g. a cache time of 0). */
  keepUntil: number | null;
}

/**
 * A small in-process cache whose entries expire at a time given per entry, with a bound on its
 * size (the oldest entry goes first). For short-lived caches on hot paths, where a stale entry
 * is acceptable for a stated number of seconds.
 *
 * A delete is how a cache hears that something changed (a revoked key, a rotated secret). An
 * answer looked up before the delete may have read the row from before that change, so
 * `getOrLoad` keeps a lookup's answer only if nothing was deleted while it was out: a change is
 * never undone by a lookup that was out when it arrived.
 */
export class TtlCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  private deletions = 0;

  constructor(private readonly maxEntries: number) {}

  get(key: K, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > now) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** The cached value, or `load()`'s, kept until its `keepUntil` unless something was deleted meanwhile. */
  async getOrLoad(key: K, now: number, load: () => Promise<Loaded<V>>): Promise<V> {
    const cached = this.get(key, now);
    if (cached !== undefined) return cached;
    const lookedUpAt = this.deletions;
    const { value, keepUntil } = await load();
    if (keepUntil !== null && keepUntil > now && lookedUpAt === this.deletions) this.put(key, value, keepUntil);
    return value;
  }

  /**
   * Keeps a value this process made itself (a counter), not one read from elsewhere: a looked-up
   * value goes through getOrLoad, which knows whether a delete overtook it.
   */
  put(key: K, value: V, expiresAt: number): void {
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expiresAt });
  }

  delete(key: K): void {
    this.deletions++;
    this.entries.delete(key);
  }

  /** Drops every entry whose value matches (e.g. all cached keys of a deleted organization). */
  deleteWhere(matches: (value: V) => boolean): void {
    this.deletions++;
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key);
  }
}
