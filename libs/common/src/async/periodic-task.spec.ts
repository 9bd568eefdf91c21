import { PeriodicTask } from './periodic-task';

describe('PeriodicTask', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** Lets the promise callbacks already due run (a real setImmediate: the fake timers do not hold it). */
  const settled = () => new Promise((resolve) => jest.requireActual<typeof import('timers')>('timers').setImmediate(resolve));

  function controlled() {
    const runs: { finish: () => void; fail: (error: Error) => void }[] = [];
    const work = () => new Promise<void>((resolve, reject) => runs.push({ finish: resolve, fail: reject }));
    return { runs, work };
  }

  it('runs on every tick, but never twice at once', async () => {
    const { runs, work } = controlled();
    const task = new PeriodicTask(work, () => undefined);
    task.start(100);
    jest.advanceTimersByTime(100);
    expect(runs).toHaveLength(1);
    jest.advanceTimersByTime(300);
    expect(runs).toHaveLength(1);
    runs[0].finish();
    await settled();
    jest.advanceTimersByTime(100);
    expect(runs).toHaveLength(2);
    runs[1].finish();
    await task.stop();
  });

  it('stop() waits for the run under way, and no run starts after it', async () => {
    const { runs, work } = controlled();
    const task = new PeriodicTask(work, () => undefined);
    task.start(100);
    jest.advanceTimersByTime(100);
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    runs[0].finish();
    await stopping;
    jest.advanceTimersByTime(1000);
    expect(runs).toHaveLength(1);
  });

  it('hands a failed run to onError, and tries again on the next tick', async () => {
    const { runs, work } = controlled();
    const errors: string[] = [];
    const task = new PeriodicTask(work, (error) => errors.push(error.message));
    task.start(100);
    jest.advanceTimersByTime(100);
    runs[0].fail(new Error('Postgres is away'));
    await settled();
    expect(errors).toEqual(['Postgres is away']);
    jest.advanceTimersByTime(100);
    expect(runs).toHaveLength(2);
    runs[1].finish();
    await task.stop();
  });
});
