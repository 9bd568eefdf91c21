import fc from 'fast-check';
import { allowedRedirect, RedirectTarget } from '@sesame/common';
import { autologinTargets } from './autologin-walk';

describe('autologinTargets', () => {
  const whitelist = ['http://localhost:4000', 'https://shop.example.com', 'https://*.example.org', 'https://blog.example.com'];
  const open: RedirectTarget = { type: 'web', callbackUrls: [], whitelistDomains: whitelist };

  it('visits every other whitelist origin on the same path when no callback URLs are registered', () => {
    expect(autologinTargets('http://localhost:4000/auth/callback?x=1', open)).toEqual([
      'https://shop.example.com/auth/callback?x=1',
      'https://blog.example.com/auth/callback?x=1',
    ]);
  });

  it('uses the registered callback URL of each origin and skips origins without one', () => {
    const callbacks = ['http://localhost:4000/cb', 'https://shop.example.com/sesame/callback'];
    expect(autologinTargets('http://localhost:4000/cb', { ...open, callbackUrls: callbacks })).toEqual([
      'https://shop.example.com/sesame/callback',
    ]);
  });

  it('has nothing to visit when the organization has a single domain', () => {
    expect(autologinTargets('http://localhost:4000/cb', { ...open, whitelistDomains: ['http://localhost:4000'] })).toEqual([]);
  });

  it('never reads a path starting with // as a host: such a stop is skipped', () => {
    // The redirect_uri itself is refused before any login starts; the walk does not rely on that.
    expect(allowedRedirect(open, 'http://localhost:4000//evil.com/cb')).toBeNull();
    expect(autologinTargets('http://localhost:4000//evil.com/cb', open)).toEqual([]);
    expect(autologinTargets('http://localhost:4000/%2F/evil.com/cb', open)).toEqual([
      'https://shop.example.com/%2F/evil.com/cb',
      'https://blog.example.com/%2F/evil.com/cb',
    ]);
  });

  describe('property: whatever the path and query, every stop is on a whitelist origin and passes the redirect rules', () => {
    const hostile = fc.constantFrom(
      '/',
      '//',
      '\\',
      '@',
      ':',
      '?',
      '#',
      '%2f',
      '%2F',
      '%5c',
      '..',
      '.',
      'evil.com',
      'evil.com:443',
      'user:pw@',
      '\t',
      '\n',
      ' ',
      '%00',
      'https:',
      '//evil.com',
      '/\\evil.com',
      '%40evil.com',
      '?x=//evil.com',
      'a',
    );
    const path = fc.array(hostile, { maxLength: 8 }).map((parts) => `/${parts.join('')}`);
    const origin = fc.constantFrom(...whitelist.filter((entry) => !entry.includes('*')));

    it('for raw redirect_uri strings built from hostile fragments', () => {
      fc.assert(
        fc.property(origin, path, fc.boolean(), (start, rawPath, withCallbacks) => {
          const application: RedirectTarget = withCallbacks
            ? { ...open, callbackUrls: ['https://shop.example.com/cb', 'https://blog.example.com/x?y=1'] }
            : open;
          let redirectUri: string;
          try {
            redirectUri = new URL(start + rawPath).href;
          } catch {
            return;
          }
          for (const stop of autologinTargets(redirectUri, application)) {
            const url = new URL(stop);
            expect(whitelist).toContain(url.origin);
            expect(allowedRedirect(application, stop)?.href).toBe(stop);
          }
        }),
        { numRuns: 2000 },
      );
    });
  });
});
