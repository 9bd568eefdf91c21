/**
 * A small in-process cache whose entries expire at a time given per entry, with a bound on its
 * size (the oldest entry goes first). For short-lived caches on hot paths, where a stale entry
 * is acceptable for a stated number of seconds.
 *
 * A delete is how a cache hears that something changed (a revoked key, a rotated secret). An
 * answer looked up before the delete may have read the row from before that change, so a lookup
 * takes `version()` when it starts and passes it to `set()`, which drops the answer if anything
 * was deleted since: a change is never undone by a lookup that was out when it arrived.
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

  /** Taken before a lookup whose answer goes to set(). */
  version(): number {
    return this.deletions;
  }

  /** Keeps the value, unless something was deleted since `lookedUpAt` (a version()). */
  set(key: K, value: V, expiresAt: number, lookedUpAt = this.deletions): void {
    if (lookedUpAt !== this.deletions) return;
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
