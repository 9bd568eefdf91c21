import { BOARD_SESSION_SECONDS, BoardSessions, bearerIsPlatformKey } from './board-access';

const KEY = 'platform-key-0123456789abcdef0123456789';
const SECRETS = Buffer.alloc(32, 3);

describe('queue dashboard access', () => {
  it.each([
    [`Bearer ${KEY}`, true],
    [`bearer ${KEY}`, true],
    [`Bearer ${KEY}x`, false],
    [`Basic ${Buffer.from(`admin:${KEY}`).toString('base64')}`, false], // no Basic: browsers would keep sending it
    ['Bearer', false],
    ['', false],
    [undefined, false],
  ])('%j is the platform key: %s', (header, expected) => {
    expect(bearerIsPlatformKey(header, KEY)).toBe(expected);
  });

  describe('browser sessions', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const sessions = new BoardSessions(SECRETS, KEY);

    it('hold an expiry and a signature, never the platform key, and last an hour', () => {
      const value = sessions.issue(now);
      expect(value).not.toContain(KEY);
      expect(sessions.valid(value, now)).toBe(true);
      expect(sessions.valid(value, new Date(now.getTime() + (BOARD_SESSION_SECONDS - 1) * 1000))).toBe(true);
      expect(sessions.valid(value, new Date(now.getTime() + BOARD_SESSION_SECONDS * 1000))).toBe(false);
    });

    it('refuse made-up, altered or foreign values, and all of them once the platform key changes', () => {
      const value = sessions.issue(now);
      const [expires, signature] = value.split('.');
      for (const forged of [
        undefined,
        '',
        'x',
        `${Number(expires) + 3600}.${signature}`,
        `${expires}.${'A'.repeat(43)}`,
        `${expires}.${signature}x`,
      ]) {
        expect(sessions.valid(forged, now)).toBe(false);
      }
      expect(new BoardSessions(Buffer.alloc(32, 4), KEY).valid(value, now)).toBe(false);
      expect(new BoardSessions(SECRETS, `${KEY}-rotated`).valid(value, now)).toBe(false);
    });
  });
});
