import Redis from 'ioredis';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '../containers/support/until';
import { ThrowawayRedis } from './throwaway-redis';

const NAME = 'sesame-test';

/**
 * A Redis primary, one replica and three sentinels (quorum 2) of a test's own, on loopback: the
 * apps get the sentinels' addresses, and the test kills the primary to see the replica promoted.
 */
export class RedisSentinelSet {
  private constructor(
    private readonly primary: ThrowawayRedis,
    readonly replica: ThrowawayRedis,
    private readonly sentinels: ThrowawayRedis[],
    private readonly configDir: string,
  ) {}

  static async start(): Promise<RedisSentinelSet> {
    const primary = await ThrowawayRedis.start();
    const replica = await ThrowawayRedis.start({ replicaOf: primary });
    await until('replica in sync', async () => (await info(replica.port, 'replication')).includes('master_link_status:up'), 30_000);
    const configDir = mkdtempSync(join(tmpdir(), 'sesame-sentinel-'));
    const sentinels: ThrowawayRedis[] = [];
    for (const index of [1, 2, 3]) {
      const file = join(configDir, `sentinel-${index}.conf`);
      // Declares the primary down after 1 s without an answer (production: 5–30 s, see docs/operations.md).
      writeFileSync(
        file,
        [
          `sentinel monitor ${NAME} 127.0.0.1 ${primary.port} 2`,
          `sentinel down-after-milliseconds ${NAME} 1000`,
          `sentinel failover-timeout ${NAME} 10000`,
        ].join('\n'),
      );
      sentinels.push(await ThrowawayRedis.start({ sentinelConfig: file }));
    }
    const set = new RedisSentinelSet(primary, replica, sentinels, configDir);
    await until('sentinels that know each other and the replica', () => set.ready(), 60_000);
    return set;
  }

  /** The apps' configuration: the sentinels instead of REDIS_URL. */
  get env(): Record<string, string> {
    return {
      REDIS_URL: '',
      REDIS_SENTINELS: this.sentinels.map((sentinel) => `127.0.0.1:${sentinel.port}`).join(','),
      REDIS_SENTINEL_NAME: NAME,
    };
  }

  /** Resolves once the replica has every write the primary took so far, so a failover now loses none of them. */
  async replicated(): Promise<void> {
    const client = new Redis(this.primary.port, '127.0.0.1');
    try {
      const acknowledged = (await client.call('WAIT', '1', '10000')) as number;
      if (acknowledged < 1) throw new Error('the replica did not acknowledge the primary’s writes');
    } finally {
      client.disconnect();
    }
  }

  /** How many clients of the primary (or of the server on `port`) are subscribed to `channel`. */
  async subscribers(channel: string, port = this.primary.port): Promise<number> {
    const client = new Redis(port, '127.0.0.1');
    try {
      const [, count] = (await client.call('PUBSUB', 'NUMSUB', channel)) as [string, number];
      return Number(count);
    } finally {
      client.disconnect();
    }
  }

  /** Kills the primary (SIGKILL) and resolves with the new primary's port once the sentinels have promoted one. */
  async killPrimary(): Promise<number> {
    const subscriber = new Redis(this.sentinels[0].port, '127.0.0.1');
    try {
      await subscriber.subscribe('+switch-master');
      const switched = new Promise<string>((resolve) => subscriber.on('message', (_channel, message: string) => resolve(message)));
      await this.primary.kill();
      // "<name> <old ip> <old port> <new ip> <new port>"
      return Number((await switched).split(' ')[4]);
    } finally {
      subscriber.disconnect();
    }
  }

  async stop(): Promise<void> {
    for (const server of [...this.sentinels, this.replica, this.primary]) await server.remove();
    rmSync(this.configDir, { recursive: true, force: true });
  }

  private async ready(): Promise<boolean> {
    for (const sentinel of this.sentinels) {
      const client = new Redis(sentinel.port, '127.0.0.1');
      try {
        const fields = (await client.call('SENTINEL', 'MASTER', NAME)) as string[];
        const state = Object.fromEntries(fields.flatMap((value, index) => (index % 2 === 0 ? [[value, fields[index + 1]]] : [])));
        if (Number(state['num-slaves']) < 1 || Number(state['num-other-sentinels']) < 2) return false;
      } finally {
        client.disconnect();
      }
    }
    return true;
  }
}

async function info(port: number, section: string): Promise<string> {
  const client = new Redis(port, '127.0.0.1');
  try {
    return await client.info(section);
  } finally {
    client.disconnect();
  }
}
