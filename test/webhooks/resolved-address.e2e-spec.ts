import { addressAllowed } from '@sesame/common';
import { lookup } from 'node:dns/promises';
import { once } from 'node:events';
import { AddressInfo, createServer, Server } from 'node:net';
import { hostname } from 'node:os';
import request from 'supertest';
import { until } from '../containers/support/until';
import { startStack, Stack } from '../support/apps';
import { createTenant, TenantFixture } from '../support/fixtures';
import { SmtpSink } from '../support/smtp-sink';
import { ThrowawayDatabase } from '../support/throwaway-database';

/**
 * A URL whose host is a name, not an address, passes the check when it is saved; what it resolves
 * to is checked when the worker connects (so a name that points inward, at once or later by DNS
 * rebinding, reaches nothing). The machine's own name resolves to one of its own addresses here
 * (/etc/hosts): with loopback not allowed, as in production, the worker must not connect to it.
 */
describe('webhooks to a name that resolves to a private or loopback address', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let database: ThrowawayDatabase;
  let listener: Server;
  let connections = 0;
  let tenant: TenantFixture;

  beforeAll(async () => {
    listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    }).listen(0);
    await Promise.all([smtp.start(), once(listener, 'listening')]);
    database = await ThrowawayDatabase.create();
    stack = await startStack(smtp.url, {
      env: {
        DATABASE_URL: database.url,
        WEBHOOK_ALLOW_HTTP_LOOPBACK: 'off',
        WEBHOOK_RETRY_DELAYS_MS: '50',
        WEBHOOK_DISPATCH_INTERVAL_MS: '50',
      },
    });
    tenant = await createTenant(stack.management.url, 'pro');
  });

  afterAll(async () => {
    await stack?.close();
    listener?.close();
    await smtp.stop();
    await database?.drop();
  });

  it('is saved (a name is no address), and each try is refused at connect time without a connection', async () => {
    const name = hostname();
    const resolved = await lookup(name, { all: true });
    // The test's premise, stated rather than assumed: this machine's name resolves to its own, non-public addresses.
    expect(resolved.filter((entry) => addressAllowed(entry.address, { allowHttpLoopback: false }))).toEqual([]);
    const url = `https://${name}:${(listener.address() as AddressInfo).port}/hooks`;
    const as = (test: request.Test) => test.set('Authorization', `Bearer ${tenant.apiKey}`);
    const endpoint = (await as(request(stack.management.url).post('/api/v2/tenant/webhook_endpoint')).send({ url }).expect(201)).body;
    await as(request(stack.management.url).post(`/api/v2/tenant/webhook_endpoint/${endpoint.id}/test`)).expect(202);

    const delivery = async () =>
      (await as(request(stack.management.url).get(`/api/v2/tenant/webhook_endpoint/${endpoint.id}/delivery`)).expect(200)).body.data[0] as
        { status: string; attemptLog: { error: string | null; responseStatus: number | null }[] } | undefined;
    await until('both tries failed', async () => (await delivery())?.status === 'failed', 20_000);
    const { attemptLog } = (await delivery())!;
    expect(attemptLog).toHaveLength(2);
    for (const attempt of attemptLog) {
      expect(attempt.responseStatus).toBeNull();
      expect(attempt.error).toBe(`EADDRNOTALLOWED: ${name} resolves to an address webhooks may not reach`);
    }
    expect(connections).toBe(0);
  });
});
