import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { assignRequestId, isSafeRequestId, requestIdOf } from './request-id';

function exchange(headers: Record<string, string> = {}) {
  const request = new IncomingMessage(new Socket());
  request.headers = headers;
  return { request, response: new ServerResponse(request) };
}

describe('request ids', () => {
  it.each([
    ['abc', true],
    ['A.b_c-1', true],
    ['x'.repeat(64), true],
    ['x'.repeat(65), false],
    ['', false],
    ['has space', false],
    ['new\nline', false],
    ['<script>', false],
    ['ü', false],
  ])('%j is safe: %s', (value, safe) => {
    expect(isSafeRequestId(value)).toBe(safe);
  });

  it('keeps a safe incoming X-Request-Id and echoes it', () => {
    const { request, response } = exchange({ 'x-request-id': 'from-the-gateway.1' });
    expect(assignRequestId(request, response)).toBe('from-the-gateway.1');
    expect(response.getHeader('X-Request-Id')).toBe('from-the-gateway.1');
    expect(requestIdOf(request)).toBe('from-the-gateway.1');
  });

  it('replaces an unsafe one with a UUID, once per request', () => {
    const { request, response } = exchange({ 'x-request-id': 'evil\r\nSet-Cookie: x' });
    const id = assignRequestId(request, response);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(assignRequestId(request, response)).toBe(id);
    expect(response.getHeader('X-Request-Id')).toBe(id);
  });

  it("is found through Fastify's request.raw as through Express's request", () => {
    const { request, response } = exchange();
    const id = assignRequestId(request, response);
    expect(requestIdOf({ raw: request, id: 'req-1' })).toBe(id);
    expect(requestIdOf(request)).toBe(id);
    expect(requestIdOf(exchange().request)).toBeNull();
    expect(requestIdOf(undefined)).toBeNull();
  });
});
