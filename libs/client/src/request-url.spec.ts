import { createSesameClient } from './client';
import { clientAddress, currentUrl, resolveReturnTo, withoutCallbackParameters } from './request-url';
import { BASE_URL, CLIENT_ID, CLIENT_SECRET, FakeResponse, fakeRequest, sesameFetch } from './testing/fakes';

describe('return address (returnTo) fallback order', () => {
  const request = (url: string, referer?: string) => fakeRequest({ url, headers: referer ? { referer } : {} });

  it('1. an explicit returnTo wins over everything', () => {
    expect(
      resolveReturnTo(
        request('/signin?return_to=/from-query', 'https://app.example.com/from-referer'),
        'https://app.example.com/explicit',
        false,
      ),
    ).toEqual({
      url: new URL('https://app.example.com/explicit'),
      source: 'config',
    });
  });

  it('2. then the return_to query parameter of the request URL (relative to it)', () => {
    expect(
      resolveReturnTo(request('/signin?return_to=%2Ffrom-query%3Fx%3D1', 'https://app.example.com/from-referer'), undefined, false),
    ).toEqual({
      url: new URL('https://app.example.com/from-query?x=1'),
      source: 'query',
    });
  });

  it('3. then the Referer', () => {
    expect(resolveReturnTo(request('/signin', 'https://app.example.com/from-referer?tab=2'), undefined, false)).toEqual({
      url: new URL('https://app.example.com/from-referer?tab=2'),
      source: 'referer',
    });
  });

  it('4. then the origin of the current request URL', () => {
    expect(resolveReturnTo(request('/deep/signin?x=1'), undefined, false)).toEqual({
      url: new URL('https://app.example.com/'),
      source: 'origin',
    });
  });

  it('skips a return_to or Referer on another host (anyone can put those in a link) and falls through', () => {
    expect(
      resolveReturnTo(request('/signin?return_to=https://evil.example/x', 'https://app.example.com/page'), undefined, false).source,
    ).toBe('referer');
    expect(resolveReturnTo(request('/signin?return_to=//evil.example/x', 'https://other.example/page'), undefined, false).source).toBe(
      'origin',
    );
    expect(resolveReturnTo(request('/signin?return_to=javascript:alert(1)'), undefined, false).source).toBe('origin');
    expect(resolveReturnTo(request('/signin?return_to=%2F%5Cevil.example'), undefined, false).source).toBe('origin');
  });

  it('compares scheme, host and port: the same host on another port or scheme is another origin, and skipped', () => {
    expect(resolveReturnTo(request('/signin?return_to=http://app.example.com:8080/x'), undefined, false).source).toBe('origin');
    expect(resolveReturnTo(request('/signin?return_to=http://app.example.com/x'), undefined, false).source).toBe('origin');
    expect(resolveReturnTo(request('/signin', 'https://app.example.com:8443/page'), undefined, false).source).toBe('origin');
    expect(resolveReturnTo(request('/signin?return_to=https://app.example.com:443/x'), undefined, false).url.href).toBe(
      'https://app.example.com/x',
    );
  });

  it('refuses an explicit returnTo on another origin', () => {
    expect(() => resolveReturnTo(request('/signin'), 'https://elsewhere.example/', false)).toThrow(
      /returnTo must be an http\(s\) URL on https:\/\/app.example.com/,
    );
    expect(() => resolveReturnTo(request('/signin'), 'http://app.example.com/x', false)).toThrow(/origin the login starts on/);
  });

  it('drops fragments', () => {
    expect(resolveReturnTo(request('/signin'), '/page#section', false).url.href).toBe('https://app.example.com/page');
  });

  it('the redirect_uri sent to Sesame is the callback path on the return address’s origin', async () => {
    const fetch = sesameFetch();
    const sesame = createSesameClient({
      baseUrl: BASE_URL,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      fetch,
      callbackPath: '/auth/callback',
    });
    const cases: [Parameters<typeof fakeRequest>[0], string | undefined, string, string][] = [
      [{ url: '/signin' }, 'https://app.example.com/explicit', 'https://app.example.com/auth/callback', 'https://app.example.com/explicit'],
      [{ url: '/signin?return_to=/q' }, undefined, 'https://app.example.com/auth/callback', 'https://app.example.com/q'],
      [
        { url: '/signin', headers: { referer: 'https://app.example.com/r' } },
        undefined,
        'https://app.example.com/auth/callback',
        'https://app.example.com/r',
      ],
      [
        { url: '/signin', https: false, host: 'localhost:4000' },
        undefined,
        'http://localhost:4000/auth/callback',
        'http://localhost:4000/',
      ],
    ];
    for (const [init, returnTo, redirectUri, target] of cases) {
      const attempt = await sesame.authenticateDirect(fakeRequest(init), new FakeResponse(), { email: 'ada@example.com', returnTo });
      expect({
        sent: JSON.parse(fetch.calls.at(-1)!.body!).redirect_uri,
        redirectUri: attempt.redirectUri,
        returnTo: attempt.returnTo,
      }).toEqual({ sent: redirectUri, redirectUri, returnTo: target });
    }
  });
});

describe('currentUrl', () => {
  it('uses the socket for the scheme and the Host header, and Express’s originalUrl', () => {
    expect(currentUrl({ url: '/cb?x=1', headers: { host: 'localhost:4000' }, socket: {} }, false).href).toBe(
      'http://localhost:4000/cb?x=1',
    );
    expect(
      currentUrl({ url: '/cb', originalUrl: '/auth/cb', headers: { host: 'app.example.com' }, socket: { encrypted: true } }, false).href,
    ).toBe('https://app.example.com/auth/cb');
  });

  it('reads X-Forwarded-Proto and X-Forwarded-Host only when proxies are trusted', () => {
    const req = {
      url: '/cb',
      headers: { host: '10.0.0.5:3000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'app.example.com' },
      socket: {},
    };
    expect(currentUrl(req, false).href).toBe('http://10.0.0.5:3000/cb');
    expect(currentUrl(req, true).href).toBe('https://app.example.com/cb');
  });
});

describe('withoutCallbackParameters', () => {
  it('removes what Sesame added and keeps the rest as it was encoded', () => {
    expect(withoutCallbackParameters(new URL('https://shop.example.com/callback?code=a&state=b&autologin_continue=c'))).toBe(
      'https://shop.example.com/callback',
    );
    expect(withoutCallbackParameters(new URL('https://shop.example.com/cb?lang=de&code=a&x=%2F&state=b'))).toBe(
      'https://shop.example.com/cb?lang=de&x=%2F',
    );
    expect(withoutCallbackParameters(new URL('https://shop.example.com/cb?error=e&error_description=d'))).toBe(
      'https://shop.example.com/cb',
    );
  });
});

describe('the end user’s address passed on to Sesame', () => {
  const withSocket = (remoteAddress: string | undefined, forwarded?: string) =>
    ({ url: '/', headers: forwarded ? { 'x-forwarded-for': forwarded } : {}, socket: { remoteAddress } }) as Parameters<
      typeof clientAddress
    >[0];

  it('is the socket’s peer, IPv4-mapped addresses as IPv4', () => {
    expect(clientAddress(withSocket('203.0.113.7'), false)).toBe('203.0.113.7');
    expect(clientAddress(withSocket('::ffff:203.0.113.7'), false)).toBe('203.0.113.7');
    expect(clientAddress(withSocket('2001:db8::1'), false)).toBe('2001:db8::1');
  });

  it('believes X-Forwarded-For only behind a trusted proxy, and only the address that proxy appended', () => {
    expect(clientAddress(withSocket('10.0.0.2', '198.51.100.9'), false)).toBe('10.0.0.2');
    expect(clientAddress(withSocket('10.0.0.2', 'forged, 198.51.100.9'), true)).toBe('198.51.100.9');
  });

  it('is left out when it is not an address', () => {
    expect(clientAddress(withSocket(undefined), false)).toBeUndefined();
    expect(clientAddress(withSocket('10.0.0.2', '198.51.100.9, not-an-ip'), true)).toBeUndefined();
  });
});
