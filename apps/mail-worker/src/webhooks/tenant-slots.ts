/**
 * Deliveries under way per tenant in this worker, at most `cap` each: one tenant's slow endpoint
 * holds at most `cap` of the worker's slots, and the others go on serving every other tenant.
 */
export class TenantSlots {
  private readonly inUse = new Map<string, number>();

  constructor(private readonly cap: number) {}

  /** True when the tenant had a slot free (now taken: give it back with `release`). */
  take(tenantId: string): boolean {
    const used = this.inUse.get(tenantId) ?? 0;
    if (used >= this.cap) return false;
    this.inUse.set(tenantId, used + 1);
    return true;
  }

  release(tenantId: string): void {
    const used = (this.inUse.get(tenantId) ?? 0) - 1;
    if (used > 0) this.inUse.set(tenantId, used);
    else this.inUse.delete(tenantId);
  }
}
