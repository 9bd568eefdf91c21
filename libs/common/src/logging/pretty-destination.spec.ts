import { prettyLine } from './pretty-destination';

describe('prettyLine', () => {
  it('shows time, app, level, context, message and request id', () => {
    const line = JSON.stringify({
      level: 'info',
      time: '2026-11-24T00:12:01.234Z',
      app: 'auth-api',
      pid: 1,
      hostname: 'h',
      context: 'LoginLinkMailer',
      msg: 'Sent',
      requestId: 'r-1',
    });
    expect(prettyLine(line)).toBe('00:12:01.234 auth-api INFO  [LoginLinkMailer] Sent (r-1)');
  });

  it('adds method, URL, status and time to request lines', () => {
    const line = JSON.stringify({
      level: 'info',
      time: '2026-11-24T00:12:01.234Z',
      app: 'management-api',
      msg: 'request completed',
      req: { method: 'GET', url: '/api/v2/organization' },
      res: { statusCode: 200 },
      responseTime: 3,
      requestId: 'r-2',
    });
    expect(prettyLine(line)).toBe('00:12:01.234 management-api INFO  request completed GET /api/v2/organization 200 3 ms (r-2)');
  });

  it('passes through what is not JSON', () => {
    expect(prettyLine('plain text\n')).toBe('plain text');
  });
});
