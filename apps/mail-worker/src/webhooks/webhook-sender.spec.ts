import { LookupFunction, SesameConfig } from '@sesame/common';
import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { WebhookSender } from './webhook-sender';

const config = (allowHttpLoopback: boolean, timeoutMs = 2000) => ({ webhooks: { allowHttpLoopback, timeoutMs } }) as SesameConfig;
const resolvingTo =
  (address: string): LookupFunction =>
  (_host, _options, callback) =>
    callback(null, [{ address, family: 4 }]);

describe('WebhookSender', () => {
  let server: Server;
  let base: string;
  let handle: (request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) => void;
  let requests = 0;
  let connections = 0;

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests += 1;
      handle(request, response);
    })
      .on('connection', () => (connections += 1))
      .listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    requests = 0;
    connections = 0;
  });

  it.each([
    ['a private address', '10.0.0.5'],
    ['the metadata address', '169.254.169.254'],
    ['loopback, where it is not allowed', '127.0.0.1'],
  ])('does not connect when the host resolves to %s', async (_, address) => {
    const result = await new WebhookSender(config(false), resolvingTo(address)).send('https://hooks.example.test/x', {}, '{}');
    expect(result).toMatchObject({ status: null, excerpt: null });
    expect(result.error).toMatch(/^EADDRNOTALLOWED: hooks\.example\.test resolves to an address webhooks may not reach/);
  });

  it('does not send to a URL the rules refuse (plain http where loopback is not allowed)', async () => {
    const result = await new WebhookSender(config(false), undefined).send(`${base}/x`, {}, '{}');
    expect(result.error).toBe('not sent: url must use https');
    expect(requests).toBe(0);
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    handle = (_request, response) => response.writeHead(302, { location: 'http://169.254.169.254/' }).end('moved');
    const result = await new WebhookSender(config(true), undefined).send(`${base}/x`, { 'webhook-id': 'evt_1' }, '{"a":1}');
    expect(result).toMatchObject({ status: 302, excerpt: 'moved', error: null });
    expect(requests).toBe(1);
  });

  it('keeps only the first kilobyte of an answer', async () => {
    handle = (_request, response) => response.writeHead(200).end('x'.repeat(100_000));
    const result = await new WebhookSender(config(true), undefined).send(`${base}/x`, {}, '{}');
    expect(result.status).toBe(200);
    expect(result.excerpt!.length).toBeLessThanOrEqual(1024);
  });

  it('keeps an answer printable: a NUL (which Postgres text cannot hold) or a control character becomes U+FFFD', async () => {
    handle = (_request, response) => response.writeHead(200).end('ok\u0000\u001b[31m');
    const result = await new WebhookSender(config(true), undefined).send(`${base}/x`, {}, '{}');
    expect(result.excerpt).toBe('ok\ufffd\ufffd[31m');
  });

  it('gives up on an endpoint that does not answer in time', async () => {
    handle = () => undefined;
    const result = await new WebhookSender(config(true, 200), undefined).send(`${base}/x`, {}, '{}');
    expect(result).toMatchObject({ status: null, error: expect.stringContaining('no answer within 200 ms') });
  });

  it('posts the body as JSON with the headers given', async () => {
    let seen: { headers: Record<string, unknown>; body: string } | undefined;
    handle = (request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk));
      request.on('end', () => {
        seen = { headers: request.headers, body };
        response.writeHead(204).end();
      });
    };
    const result = await new WebhookSender(config(true), undefined).send(`${base}/x`, { 'webhook-id': 'evt_2' }, '{"type":"ping"}');
    expect(result).toMatchObject({ status: 204, error: null });
    expect(seen).toMatchObject({ body: '{"type":"ping"}', headers: { 'webhook-id': 'evt_2', 'content-type': 'application/json' } });
  });

  it('sends the next delivery on the connection of the last one when its answer was read to the end', async () => {
    handle = (_request, response) => response.writeHead(204).end();
    const sender = new WebhookSender(config(true), undefined);
    for (let i = 0; i < 3; i++) expect((await sender.send(`${base}/x`, {}, '{}')).status).toBe(204);
    expect([requests, connections]).toEqual([3, 1]);
    sender.onApplicationShutdown();
  });

  it('closes a connection whose answer was cut short, and opens a new one for the next delivery', async () => {
    handle = (_request, response) => response.writeHead(200).end('x'.repeat(100_000));
    const sender = new WebhookSender(config(true), undefined);
    for (let i = 0; i < 2; i++) expect((await sender.send(`${base}/x`, {}, '{}')).status).toBe(200);
    expect(connections).toBe(2);
    sender.onApplicationShutdown();
  });
});
