import { SLOW_TRY_MS, TenantSlots } from './tenant-slots';

describe('TenantSlots', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("turns a tenant's run away at once when its cap is reached and its oldest try is slow, whatever other tenants hold", async () => {
    const slots = new TenantSlots(2);
    expect([await slots.take('a'), await slots.take('a')]).toEqual([expect.any(Function), expect.any(Function)]);
    jest.advanceTimersByTime(SLOW_TRY_MS);
    await expect(slots.take('a')).resolves.toBeNull();
    await expect(slots.take('b')).resolves.toEqual(expect.any(Function));
  });

  it('lets a run wait for a slot of a tenant whose tries are young, and gives it the first one that comes back', async () => {
    const slots = new TenantSlots(1);
    const first = (await slots.take('a'))!;
    let second: unknown;
    void slots.take('a').then((slot) => (second = slot));
    await jest.advanceTimersByTimeAsync(SLOW_TRY_MS / 2);
    expect(second).toBeUndefined();
    first();
    await jest.advanceTimersByTimeAsync(0);
    expect(second).toEqual(expect.any(Function));
  });

  it('turns the waiting run away when the try it waits behind turns slow', async () => {
    const slots = new TenantSlots(1);
    await slots.take('a');
    const waiting = slots.take('a');
    await jest.advanceTimersByTimeAsync(SLOW_TRY_MS);
    await expect(waiting).resolves.toBeNull();
  });

  it('gives a slot back once, however often it is called', async () => {
    const slots = new TenantSlots(2);
    const first = (await slots.take('a'))!;
    await slots.take('a');
    first();
    first();
    await slots.take('a');
    jest.advanceTimersByTime(SLOW_TRY_MS);
    await expect(slots.take('a')).resolves.toBeNull();
  });
});
