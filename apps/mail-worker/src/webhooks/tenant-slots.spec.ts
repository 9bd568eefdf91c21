import { TenantSlots } from './tenant-slots';

describe('TenantSlots', () => {
  it('gives a tenant at most its cap of slots, whatever other tenants hold', () => {
    const slots = new TenantSlots(2);
    expect([slots.take('a'), slots.take('a'), slots.take('a')]).toEqual([true, true, false]);
    expect(slots.take('b')).toBe(true);
  });

  it('frees a slot when a delivery gives it back, and forgets a tenant with none', () => {
    const slots = new TenantSlots(1);
    expect(slots.take('a')).toBe(true);
    slots.release('a');
    expect(slots.take('a')).toBe(true);
    expect(slots.take('a')).toBe(false);
    slots.release('a');
    slots.release('a');
    expect([slots.take('a'), slots.take('a')]).toEqual([true, false]);
  });
});
