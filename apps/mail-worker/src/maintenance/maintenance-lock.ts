import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { REDIS, SESAME_CONFIG, SesameConfig } from '@sesame/common';
import Redis from 'ioredis';

/** How long a lease lasts without being extended: a worker that dies mid-run frees it after this. */
export const LEASE_MS = 60_000;

/** Only the holder's token may extend or release the lease. */
const EXTEND = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface MaintenanceLease {
  /** Extends the lease; false when it was lost (expired and taken by another instance). */
  extend(): Promise<boolean>;
  release(): Promise<void>;
}

/**
 * One maintenance run at a time across every worker sharing the Redis prefix. Bull hands each
 * repetition to one worker, but a run that outlasts the interval would otherwise overlap the next.
 */
@Injectable()
export class MaintenanceLock {
  private readonly key: string;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SESAME_CONFIG) config: SesameConfig,
  ) {
    this.key = `${config.redis.prefix}:maintenance:lock`;
  }

  /** A lease when no other instance holds one, else null. */
  async acquire(): Promise<MaintenanceLease | null> {
    const token = randomUUID();
    const taken = await this.redis.set(this.key, token, 'PX', LEASE_MS, 'NX');
    if (taken !== 'OK') return null;
    return {
      extend: async () => (await this.redis.eval(EXTEND, 1, this.key, token, LEASE_MS)) === 1,
      release: async () => {
        await this.redis.eval(RELEASE, 1, this.key, token);
      },
    };
  }
}
