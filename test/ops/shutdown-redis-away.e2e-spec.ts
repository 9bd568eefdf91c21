import { getQueueToken } from '@nestjs/bull';
import { MAIL_QUEUE, MAINTENANCE_QUEUE, WEBHOOK_QUEUE } from '@sesame/queue';
import type { Queue } from 'bull';
import IORedis, { Redis } from 'ioredis';
import { RunningApp, startMailWorker, startStack } from '../support/apps';
import { connectionsReach, NO_SWEEPS } from '../support/direct-auth';
import { SmtpSink } from '../support/smtp-sink';
import { ThrowawayRedis } from '../support/throwaway-redis';

/** Every Redis connection of the worker's queues (client, subscriber, blocking), as Bull made them. */
function queueConnections(worker: RunningApp): Redis[] {
  return [MAIL_QUEUE, MAINTENANCE_QUEUE, WEBHOOK_QUEUE].flatMap((name) => worker.app.get<Queue>(getQueueToken(name)).clients);
}

/**
 * Waits until the worker's queues take jobs: each blocking connection waits in BRPOPLPUSH (Bull
 * makes that connection when its queue starts, after the others).
 */
async function untilTakingJobs(redis: ThrowawayRedis, queues: number): Promise<void> {
  const admin = new IORedis(redis.url);
  try {
    while (((await admin.client('LIST')) as string).split('\n').filter((line) => / cmd=brpoplpush/.test(line)).length < queues)
      await new Promise((resolve) => setTimeout(resolve, 20));
  } finally {
    admin.disconnect();
  }
}

/** Collects the promise rejections nobody handles while `work` runs (Node would end a process on them). */
async function unhandledRejectionsDuring(work: () => Promise<void>): Promise<string[]> {
  const rejections: string[] = [];
  const listener = (reason: unknown) => rejections.push(reason instanceof Error ? reason.message : String(reason));
  process.on('unhandledRejection', listener);
  try {
    await work();
    // A rejection is reported once the microtasks of its turn have run.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('unhandledRejection', listener);
  }
  return rejections;
}

/**
 * A rolling restart may stop an app while Redis is away or only just back: the app must still
 * close (and its process exit 0), not wait for Redis or end on an error.
 */
describe('shutdown while Redis is away', () => {
  const smtp = new SmtpSink();
  beforeAll(() => smtp.start());
  afterAll(() => smtp.stop());

  it('Redis down: the three apps close, their queues included', async () => {
    const redis = await ThrowawayRedis.start();
    try {
      const stack = await startStack(smtp.url, { env: { ...NO_SWEEPS, REDIS_URL: redis.url } });
      // Redis goes as soon as the queues are connected, maybe before they take jobs: a close must not
      // mind. Bull's start, cut short then, rejected unhandled (1 run in 4 without handleQueueStart).
      await connectionsReach(queueConnections(stack.worker), 'ready');
      await redis.kill();

      expect(await unhandledRejectionsDuring(() => stack.close())).toEqual([]);
    } finally {
      await redis.kill();
    }
  });

  it('Redis away since the worker started: it closes with no unhandled rejection', async () => {
    const redis = await ThrowawayRedis.start();
    await redis.kill();
    const worker = await startMailWorker({ env: { ...NO_SWEEPS, SMTP_URL: smtp.url, REDIS_URL: redis.url } });

    // Bull's start (process() and the worker's name) waits for Redis, and the close cuts it short.
    expect(await unhandledRejectionsDuring(() => worker.close())).toEqual([]);
  });

  it("Redis unanswering while the worker's queues reconnect: the worker closes with no unhandled rejection", async () => {
    const redis = await ThrowawayRedis.start({ backlog: 1 });
    try {
      const worker = await startMailWorker({ env: { ...NO_SWEEPS, SMTP_URL: smtp.url, REDIS_URL: redis.url } });
      // Every connection must be dropped below: one left open to the stopped server never ends
      // (the server never closes its side), and neither would Bull's close, waiting for it.
      await untilTakingJobs(redis, 3);
      const connections = queueConnections(worker);
      await connectionsReach(connections, 'ready');
      await redis.freeze();
      // Each connection drops and reconnects; the stopped Redis takes no new connection beyond its backlog and answers none.
      for (const connection of connections) (connection as unknown as { stream: { destroy(): void } }).stream.destroy();
      await connectionsReach(connections, 'connecting');

      // Bull's graceful close, called as it was, left its refused reconnect ("Redis is already
      // connecting/connected") or its QUIT ("Connection is closed.") rejected and unhandled.
      expect(await unhandledRejectionsDuring(() => worker.close())).toEqual([]);
    } finally {
      await redis.kill();
    }
    // A connection being made waits for its connect timeout (10 s) before it gives up.
  }, 90_000);
});
