import { MaintenancePause } from './maintenance-pause';

describe('MaintenancePause', () => {
  const pause = new MaintenancePause();

  it('ends as soon as its signal aborts, however long it was meant to last', async () => {
    const controller = new AbortController();
    const waiting = pause.wait(3_600_000, controller.signal);

    controller.abort();

    await expect(waiting).resolves.toBeUndefined();
  });

  it('does not start when the signal has already aborted', async () => {
    await expect(pause.wait(3_600_000, AbortSignal.abort())).resolves.toBeUndefined();
  });
});
