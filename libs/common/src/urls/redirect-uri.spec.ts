import { allowedRedirect, RedirectTarget, withQuery } from './redirect-uri';

const WHITELIST = ['https://app.example.com', 'https://*.apps.example.org', 'http://localhost:4000', 'https://xn--bcher-kva.example'];

const webOpen: RedirectTarget = { type: 'web', callbackUrls: [], whitelistDomains: WHITELIST };
const webStrict: RedirectTarget = {
  type: 'web',
  callbackUrls: ['https://app.example.com/auth/callback', 'https://app.example.com/cb?tenant=a', 'https://evil.example/cb'],
  whitelistDomains: WHITELIST,
};

const allowed = (target: RedirectTarget, raw: string) => allowedRedirect(target, raw)?.href ?? null;

describe('allowedRedirect', () => {
  describe('web applications without callback URLs: the origin must be a whitelist domain', () => {
    it.each([
      ['https://app.example.com/auth/callback', 'https://app.example.com/auth/callback'],
      ['https://app.example.com', 'https://app.example.com/'],
      ['https://app.example.com/any/path?q=1&r=2', 'https://app.example.com/any/path?q=1&r=2'],
      ['HTTPS://APP.EXAMPLE.COM:443/cb', 'https://app.example.com/cb'],
      ['https://a.apps.example.org/cb', 'https://a.apps.example.org/cb'],
      ['https://bücher.example/cb', 'https://xn--bcher-kva.example/cb'],
      ['http://localhost:4000/cb', 'http://localhost:4000/cb'],
      ['https://app.example.com/a/../cb', 'https://app.example.com/cb'],
      ['https:app.example.com/cb', 'https://app.example.com/cb'], // WHATWG reads it as the same URL: no host change
      ['https://:@app.example.com/cb', 'https://app.example.com/cb'], // empty userinfo: serialised away, the host is unchanged
    ])('%j → redirects to %s (its own serialisation)', (raw, href) => {
      expect(allowed(webOpen, raw)).toBe(href);
    });

    it.each([
      // lookalike hosts
      'https://app.example.com.evil.com/cb',
      'https://evilapp.example.com/cb',
      'https://app-example.com/cb',
      'https://app.example.co/cb',
      'https://аpp.example.com/cb', // Cyrillic "а"
      'https://app.example.com./cb',
      'https://app.example.com%2eevil.com/cb',
      'https://evil.com/app.example.com/cb',
      'https://evil.com?@app.example.com/cb',
      'https://evil.com/?https://app.example.com/cb',
      // credentials, fragments, whitespace and backslashes
      'https://app.example.com@evil.com/cb',
      'https://evil.com@app.example.com/cb',
      'https://evil.com#@app.example.com/cb',
      'https://app.example.com/cb#',
      'https://app.example.com/cb#x',
      'https://evil.com\\@app.example.com/cb',
      'https://app.example.com\\cb',
      ' https://app.example.com/cb',
      'https://app.example.com/cb ',
      'https://app.example.com/c b',
      'https://app.example.com\t.evil.com/cb',
      'https://app.example.com/cb\n',
      'https://app.example.com/\u3000',
      // scheme or port
      'http://app.example.com/cb',
      'https://app.example.com:8443/cb',
      'wss://app.example.com/cb',
      'ftp://app.example.com/cb',
      'blob:https://app.example.com/6f1c2f8e',
      'javascript:alert(1)//app.example.com',
      'data:text/html,https://app.example.com',
      'file:///etc/passwd',
      // a path starting with // (read as a host when the path is put on another origin)
      'https://app.example.com//evil.com/cb',
      'https://app.example.com//',
      'https://app.example.com/./evil.com/../..//evil.com',
      // not absolute
      '//app.example.com/cb',
      '/cb',
      'app.example.com/cb',
      '',
      // wildcard: exactly one label, never the base, the same scheme
      'https://apps.example.org/cb',
      'https://a.b.apps.example.org/cb',
      'https://a.apps.example.org.evil.com/cb',
      'https://*.apps.example.org/cb',
      'http://a.apps.example.org/cb',
      // loopback entry: same scheme, host and port only
      'http://localhost/cb',
      'http://localhost:4001/cb',
      'https://localhost:4000/cb',
      'http://127.0.0.1:4000/cb',
      'http://localhost.evil.com:4000/cb',
    ])('%j is refused', (raw) => {
      expect(allowedRedirect(webOpen, raw)).toBeNull();
    });

    it('refuses redirect_uri values longer than 2000 characters', () => {
      const base = 'https://app.example.com/';
      expect(allowed(webOpen, base + 'a'.repeat(2000 - base.length))).not.toBeNull();
      expect(allowedRedirect(webOpen, base + 'a'.repeat(2001 - base.length))).toBeNull();
    });

    it.each([undefined, null, 42, ['https://app.example.com/cb'], { href: 'https://app.example.com/cb' }])(
      'refuses the non-string %j',
      (raw) => {
        expect(allowedRedirect(webOpen, raw as unknown as string)).toBeNull();
      },
    );

    it('refuses everything when the organization has no whitelist domain', () => {
      expect(allowedRedirect({ type: 'web', callbackUrls: [], whitelistDomains: [] }, 'https://app.example.com/cb')).toBeNull();
    });

    it('http is refused for a non-loopback host even if it were whitelisted', () => {
      expect(
        allowedRedirect({ type: 'web', callbackUrls: [], whitelistDomains: ['http://app.example.com'] }, 'http://app.example.com/cb'),
      ).toBeNull();
    });
  });

  describe('web applications with callback URLs: also equal to one of them', () => {
    it.each([
      ['https://app.example.com/auth/callback', 'https://app.example.com/auth/callback'],
      ['HTTPS://App.Example.com:443/auth/callback', 'https://app.example.com/auth/callback'],
      ['https://app.example.com/cb?tenant=a', 'https://app.example.com/cb?tenant=a'],
    ])('%j → %s', (raw, href) => {
      expect(allowed(webStrict, raw)).toBe(href);
    });

    it.each([
      'https://app.example.com/auth/callback/',
      'https://app.example.com/auth/CALLBACK',
      'https://app.example.com/auth/callback?x=1',
      'https://app.example.com/auth',
      'https://app.example.com/cb',
      'https://app.example.com/cb?tenant=b',
      'https://app.example.com/cb?tenant=a&x=1',
      'https://a.apps.example.org/auth/callback',
      'http://localhost:4000/auth/callback',
    ])('%j (whitelisted but not registered) is refused', (raw) => {
      expect(allowedRedirect(webStrict, raw)).toBeNull();
    });

    it('a registered callback URL outside the whitelist is still refused', () => {
      expect(allowedRedirect(webStrict, 'https://evil.example/cb')).toBeNull();
    });
  });

  describe('native applications: a registered callback URL exactly', () => {
    const mobile: RedirectTarget = {
      type: 'android',
      callbackUrls: ['com.example.app:/callback', 'https://app.example.com/native'],
      whitelistDomains: WHITELIST,
    };
    const desktop: RedirectTarget = {
      type: 'desktop',
      callbackUrls: ['http://127.0.0.1/callback', 'http://[::1]:8080/cb?x=1', 'https://app.example.com/desktop'],
      whitelistDomains: [],
    };

    it('mobile: custom scheme or https, exactly as registered, whatever the whitelist', () => {
      expect(allowed(mobile, 'com.example.app:/callback')).toBe('com.example.app:/callback');
      expect(allowed({ ...mobile, type: 'ios' }, 'https://app.example.com/native')).toBe('https://app.example.com/native');
      for (const raw of [
        'com.example.app:/callback/',
        'com.example.app:/other',
        'com.evil.app:/callback',
        'https://app.example.com/auth/callback',
        'http://127.0.0.1/callback',
      ]) {
        expect(allowedRedirect(mobile, raw)).toBeNull();
      }
    });

    it('desktop: a loopback IP callback matches on any port (RFC 8252 §7.3)', () => {
      expect(allowed(desktop, 'http://127.0.0.1:51234/callback')).toBe('http://127.0.0.1:51234/callback');
      expect(allowed(desktop, 'http://127.0.0.1/callback')).toBe('http://127.0.0.1/callback');
      expect(allowed(desktop, 'http://[::1]:9999/cb?x=1')).toBe('http://[::1]:9999/cb?x=1');
    });

    it.each([
      'http://localhost:51234/callback', // localhost is not loopback for native apps (RFC 8252 §8.3)
      'http://127.0.0.2:51234/callback',
      'http://127.0.0.1:51234/callback/',
      'http://127.0.0.1:51234/other',
      'http://127.0.0.1:51234/callback?x=1',
      'http://[::1]:9999/cb',
      'http://[::1]:9999/cb?x=2',
      'https://127.0.0.1:51234/callback',
      'http://127.0.0.1.evil.com:51234/callback',
      'https://app.example.com:8443/desktop',
      'http://user@127.0.0.1:51234/callback',
    ])('desktop refuses %j', (raw) => {
      expect(allowedRedirect(desktop, raw)).toBeNull();
    });
  });
});

describe('allowedRedirect and the parameters the service adds', () => {
  it.each(['code', 'state', 'error', 'error_description', 'autologin_continue'])(
    'refuses a redirect_uri that already carries %s',
    (name) => {
      expect(allowed(webOpen, `https://app.example.com/cb?${name}=x`)).toBeNull();
    },
  );
});

describe('withQuery', () => {
  it('appends the parameters, encoded, and keeps the existing query', () => {
    expect(withQuery('https://app.example.com/cb?tenant=a', { code: 'abc', state: 'a b&c=d/é?' })).toBe(
      'https://app.example.com/cb?tenant=a&code=abc&state=a+b%26c%3Dd%2F%C3%A9%3F',
    );
  });

  it('redirects to the serialisation of the URL, not the raw string', () => {
    expect(withQuery('HTTPS://APP.Example.com:443/a/../cb', { code: 'x' })).toBe('https://app.example.com/cb?code=x');
  });

  it('never lets a parameter value add parameters or change the target', () => {
    const url = new URL(
      withQuery('https://app.example.com/cb', { error: 'access_denied', error_description: 'x&code=stolen#frag', state: '../../evil' }),
    );
    expect(url.origin + url.pathname).toBe('https://app.example.com/cb');
    expect([...url.searchParams.entries()]).toEqual([
      ['error', 'access_denied'],
      ['error_description', 'x&code=stolen#frag'],
      ['state', '../../evil'],
    ]);
    expect(url.hash).toBe('');
  });
});
