import { Logger } from '@nestjs/common';
import { ManualClock, parseEnvironment } from '@sesame/common';
import {
  AccessTokenRepository,
  AuditEventRepository,
  PasskeyChallengeRepository,
  AuthorizationCodeRepository,
  EmailThrottleRepository,
  LoginAttemptRepository,
  WebhookEventRepository,
} from '@sesame/entities';
import type { Queue } from 'bull';
import { MaintenanceLease, MaintenanceLock } from './maintenance-lock';
import { MaintenancePause } from './maintenance-pause';
import { MaintenanceService } from './maintenance.service';

const BATCH = 10;

/** One batch of the fake access_token step: how many rows it removes and how long it takes. */
interface FakeBatch {
  rows: number;
  ms: number;
}

/**
 * A MaintenanceService whose repositories are fakes: expired access tokens come in the given
 * batches, every other kind of row has none. Time (performance.now) moves only by the batches'
 * durations, and `events` records the lease extensions, batches and pauses in order.
 */
function harness(
  percent: number,
  tokenBatches: FakeBatch[],
  pause: (ms: number, signal: AbortSignal) => Promise<void> = async () => undefined,
) {
  let now = 0;
  jest.spyOn(performance, 'now').mockImplementation(() => now);
  const events: string[] = [];
  const waits: number[] = [];
  const none = jest.fn(async () => {
    events.push('batch');
    return 0;
  });
  const queued = [...tokenBatches];
  const expiredTokens = jest.fn(async () => {
    events.push('batch');
    const batch = queued.shift() ?? { rows: 0, ms: 1 };
    now += batch.ms;
    return batch.rows;
  });
  const lease: MaintenanceLease = {
    extend: jest.fn(async () => {
      events.push('extend');
      return true;
    }),
    release: jest.fn(async () => undefined),
  };
  const lock = { acquire: async () => lease } as unknown as MaintenanceLock;
  const codes = { deleteUnusedExpired: none, deleteUsedWithoutLiveTokens: none } as unknown as AuthorizationCodeRepository;
  const tokens = { deleteExpired: expiredTokens, deleteRevoked: none } as unknown as AccessTokenRepository;
  const attempts = { deleteCreatedBefore: none } as unknown as LoginAttemptRepository;
  const throttles = { deleteIdleSince: none } as unknown as EmailThrottleRepository;
  const auditEvents = { deleteCreatedBefore: none } as unknown as AuditEventRepository;
  const webhookEvents = { deleteCreatedBefore: none } as unknown as WebhookEventRepository;
  const passkeyChallenges = {
    deleteExpiredBefore: jest.fn(async () => 0),
    deleteExpiredSignInsBefore: jest.fn(async () => 0),
  };
  const mailQueue = {
    clean: jest.fn(async () => {
      events.push('batch');
      return [];
    }),
  } as unknown as Queue;
  const fakePause: MaintenancePause = {
    wait: (ms, signal) => {
      events.push('pause');
      waits.push(ms);
      return pause(ms, signal);
    },
  };
  const config = parseEnvironment({
    DATABASE_URL: 'postgres://localhost/unit',
    SECRETS_KEY: '00'.repeat(32),
    MAINTENANCE_BATCH_SIZE: String(BATCH),
    MAINTENANCE_BATCH_PAUSE_PERCENT: String(percent),
  });
  const clock = new ManualClock(new Date('2031-03-01T12:00:00.000Z'));
  const service = new MaintenanceService(
    lock,
    codes,
    tokens,
    attempts,
    throttles,
    auditEvents,
    webhookEvents,
    passkeyChallenges as unknown as PasskeyChallengeRepository,
    mailQueue,
    clock,
    fakePause,
    config,
  );
  return { service, events, waits, expiredTokens, none, lease, passkeyChallenges, config, clock };
}

describe('MaintenanceService: pacing between batches', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterEach(() => jest.restoreAllMocks());

  it.each([
    [100, [40, 25]],
    [250, [100, 62.5]],
    [50, [20, 12.5]],
  ])(
    'at %i %% it pauses after each full batch that share of the time the batch took, and not after the short one',
    async (percent, expected) => {
      const { service, waits } = harness(percent, [
        { rows: BATCH, ms: 40 },
        { rows: BATCH, ms: 25 },
        { rows: 3, ms: 5 },
      ]);

      const report = await service.run();

      expect(report?.removed.access_token).toBe(23);
      expect(waits).toEqual(expected);
    },
  );

  it('does not pause after a short batch (nor after an empty one)', async () => {
    const { service, waits, expiredTokens } = harness(100, [{ rows: BATCH - 1, ms: 40 }]);

    expect((await service.run())?.removed.access_token).toBe(BATCH - 1);
    expect(expiredTokens).toHaveBeenCalledTimes(1);
    expect(waits).toEqual([]);
  });

  it('never pauses at 0 %', async () => {
    const { service, waits, expiredTokens } = harness(0, [
      { rows: BATCH, ms: 40 },
      { rows: BATCH, ms: 40 },
      { rows: BATCH, ms: 40 },
      { rows: 0, ms: 1 },
    ]);

    expect((await service.run())?.removed.access_token).toBe(3 * BATCH);
    expect(expiredTokens).toHaveBeenCalledTimes(4);
    expect(waits).toEqual([]);
  });

  it('extends the lease before every batch and every pause, and no pause outlasts half the lease', async () => {
    const { service, events, waits } = harness(1000, [
      { rows: BATCH, ms: 10_000 },
      { rows: 0, ms: 1 },
    ]);

    await service.run();

    expect(waits).toEqual([30_000]);
    events.forEach((event, i) => {
      if (event !== 'extend') expect(events[i - 1]).toBe('extend');
    });
  });

  it('stop() during a pause ends it and the run at once, without another batch of this kind of row or a later one', async () => {
    let paused!: (signal: AbortSignal) => void;
    const pausing = new Promise<AbortSignal>((resolve) => (paused = resolve));
    // Like the real pause, it ends only when the signal aborts.
    const { service, expiredTokens, none, lease } = harness(
      100,
      [{ rows: BATCH, ms: 40 }],
      (_ms, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => resolve());
          paused(signal);
        }),
    );
    const running = service.run();
    const signal = await pausing;
    const batchesBefore = none.mock.calls.length;

    service.stop();

    expect(signal.aborted).toBe(true);
    const report = await running;
    expect(report?.removed).toEqual({
      authorization_code: 0,
      access_token: BATCH,
      login_attempt: 0,
      mail_job: 0,
      email_throttle: 0,
      audit_event: 0,
      webhook_event: 0,
      passkey_challenge: 0,
    });
    expect(expiredTokens).toHaveBeenCalledTimes(1);
    expect(none).toHaveBeenCalledTimes(batchesBefore);
    expect(lease.release).toHaveBeenCalled();
  });
});

describe('MaintenanceService: passkey challenges', () => {
  beforeAll(() => Logger.overrideLogger(false));
  afterEach(() => jest.restoreAllMocks());

  it('removes sign-in challenges as soon as they expire (every options request adds one), registration offers a while after', async () => {
    const { service, passkeyChallenges, config, clock } = harness(0, []);

    await service.run();

    expect(passkeyChallenges.deleteExpiredSignInsBefore).toHaveBeenCalledWith(clock.now(), BATCH);
    const retained = new Date(clock.now().getTime() - config.maintenance.codeRetentionDays * 24 * 3600 * 1000);
    expect(passkeyChallenges.deleteExpiredBefore).toHaveBeenCalledWith(retained, BATCH);
  });
});
