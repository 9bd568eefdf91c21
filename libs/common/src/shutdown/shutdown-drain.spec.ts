import { ShutdownDrain } from './shutdown-drain';

describe('ShutdownDrain', () => {
  it('is not draining until started, then calls each listener once', () => {
    const drain = new ShutdownDrain();
    const calls: string[] = [];
    drain.onStart(() => calls.push('first'));
    drain.onStart(() => calls.push('second'));
    expect(drain.draining).toBe(false);
    drain.start();
    drain.start();
    expect(drain.draining).toBe(true);
    expect(calls).toEqual(['first', 'second']);
  });

  it('calls a listener added after the start at once, and never one that was removed', () => {
    const drain = new ShutdownDrain();
    const removed = jest.fn();
    drain.onStart(removed)();
    drain.start();
    const late = jest.fn();
    drain.onStart(late);
    expect(late).toHaveBeenCalledTimes(1);
    expect(removed).not.toHaveBeenCalled();
  });
});
