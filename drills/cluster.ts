/**
 * Several instances of each app behind the production gateway (docker/nginx.conf, with an upstream
 * server per instance), optionally on a Redis primary with a replica and three sentinels: the
 * drills that stop, kill or fail over one part while the rest carries the load.
 */
import { once } from 'node:events';
import { RunningServer, SesameApp } from '../bench/context';
import { RedisSentinelSet } from '../test/support/redis-sentinel';
import { RunningNginx, startNginx } from '../test/ops/support/nginx';
import { freePort } from '../bench/processes';
import { DrillStack } from './stack';

export interface ClusterOptions {
  auth: number;
  management: number;
  workers: number;
  /** Redis through sentinels (a primary, a replica, three sentinels of the drill's own) instead of the drills' Redis. */
  sentinels?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** One app instance: the port stays when it is restarted, so the gateway's upstream list holds. */
export interface Instance {
  app: SesameApp;
  port: number;
  server: RunningServer;
}

export class Cluster {
  private constructor(
    private readonly stack: DrillStack,
    readonly prefix: string,
    private readonly env: NodeJS.ProcessEnv,
    readonly instances: Instance[],
    readonly gateway: RunningNginx,
    readonly redis: RedisSentinelSet | null,
  ) {}

  static async start(stack: DrillStack, options: ClusterOptions): Promise<Cluster> {
    const redis = options.sentinels ? await RedisSentinelSet.start() : null;
    const env = { ...options.env, ...redis?.env };
    const prefix = stack.ctx.nextRedisPrefix();
    const wanted: SesameApp[] = [
      ...Array<SesameApp>(options.auth).fill('auth-api'),
      ...Array<SesameApp>(options.management).fill('management-api'),
      ...Array<SesameApp>(options.workers).fill('mail-worker'),
    ];
    const instances: Instance[] = [];
    try {
      for (const app of wanted) {
        const port = await freePort();
        instances.push({ app, port, server: await stack.startApp(app, prefix, env, 'express', port) });
      }
      const addresses = (app: SesameApp) => instances.filter((instance) => instance.app === app).map(({ port }) => `127.0.0.1:${port}`);
      // No console in the drills: its upstream points at a port nothing listens on.
      const gateway = await startNginx(
        { auth: addresses('auth-api'), management: addresses('management-api'), console: `127.0.0.1:${await freePort()}` },
        await freePort(),
      );
      return new Cluster(stack, prefix, env, instances, gateway, redis);
    } catch (error) {
      await Promise.all(instances.map((instance) => instance.server.stop()));
      await redis?.stop();
      throw error;
    }
  }

  of(app: SesameApp): Instance[] {
    return this.instances.filter((instance) => instance.app === app);
  }

  /** Sends `signal` to the instance, waits for it to exit, and starts it again on its port; resolves with how and when it exited. */
  async restart(
    instance: Instance,
    signal: 'SIGTERM' | 'SIGKILL',
  ): Promise<{ code: number | null; signal: string | null; exitedAt: number }> {
    const child = instance.server.process.process;
    const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
    child.kill(signal);
    const [code, exitSignal] = await exited;
    const exitedAt = Date.now();
    instance.server = await this.stack.startApp(instance.app, this.prefix, this.env, 'express', instance.port);
    return { code, signal: exitSignal, exitedAt };
  }

  /** The end of every instance's output and the gateway's, for a failed drill. */
  logs(): Record<string, string> {
    return {
      ...Object.fromEntries(this.instances.map((instance) => [`${instance.app}-${instance.port}`, instance.server.process.output()])),
      gateway: this.gateway.output.lines.join('\n'),
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.instances.map((instance) => instance.server.stop()));
    await this.gateway.stop();
    await this.redis?.stop();
  }
}
