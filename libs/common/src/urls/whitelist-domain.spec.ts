import { normalizeWhitelistDomain, originMatchesWhitelist } from './whitelist-domain';

const ORIGIN_SHAPE = 'must be an origin such as https://example.com, without path, query or fragment';
const HTTP_ONLY_LOOPBACK = 'must use https (http is allowed only for loopback hosts)';
const WILDCARD_POSITION = 'a wildcard is allowed only as the whole leftmost label, as in https://*.example.com';
const WILDCARD_BASE =
  'a wildcard needs a registrable domain below it, as in https://*.example.com, never a public suffix such as *.co.uk or *.vercel.app';

describe('normalizeWhitelistDomain', () => {
  describe('normalises valid origins', () => {
    it.each([
      ['https://example.com', 'https://example.com'],
      ['https://example.com/', 'https://example.com'],
      ['HTTPS://Example.COM', 'https://example.com'],
      ['HtTpS://APP.Example.Com/', 'https://app.example.com'],
      // IDN to punycode, whatever the case of the input
      ['https://bücher.example', 'https://xn--bcher-kva.example'],
      ['https://BÜCHER.example:443/', 'https://xn--bcher-kva.example'],
      ['https://xn--bcher-kva.example', 'https://xn--bcher-kva.example'],
      // full-width letters are mapped the way browsers map them
      ['https://ｅｘａｍｐｌｅ.com', 'https://example.com'],
      // default ports dropped, other ports kept
      ['https://example.com:443', 'https://example.com'],
      ['https://example.com:8443', 'https://example.com:8443'],
      ['http://localhost:80', 'http://localhost'],
      ['HTTP://LOCALHOST:4000', 'http://localhost:4000'],
      // http on loopback hosts, IPv4 shorthand canonicalised
      ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
      ['http://127.1', 'http://127.0.0.1'],
      ['http://[::1]:3000', 'http://[::1]:3000'],
      ['https://[::1]', 'https://[::1]'],
      // wildcards
      ['https://*.example.com', 'https://*.example.com'],
      ['https://*.EXAMPLE.com/', 'https://*.example.com'],
      ['https://*.example.com:8443', 'https://*.example.com:8443'],
      ['https://*.example.com:443', 'https://*.example.com'],
      ['https://*.bücher.example', 'https://*.xn--bcher-kva.example'],
      // below a public suffix: the customer's own registrable domain
      ['https://*.example.co.uk', 'https://*.example.co.uk'],
      ['https://*.my-app.vercel.app', 'https://*.my-app.vercel.app'],
      // surrounding whitespace is trimmed (inner whitespace is rejected below)
      ['  https://example.com  ', 'https://example.com'],
    ])('%j → %s', (input, expected) => {
      expect(normalizeWhitelistDomain(input)).toEqual({ ok: true, value: expected });
    });

    it('gives the same value for every spelling of one origin', () => {
      const spellings = [
        'https://bücher.example',
        'HTTPS://BÜCHER.EXAMPLE:443',
        'https://xn--bcher-kva.example/',
        'https://Bücher.Example',
      ];
      const values = spellings.map((spelling) => normalizeWhitelistDomain(spelling));
      expect(new Set(values.map((value) => JSON.stringify(value)))).toEqual(
        new Set([JSON.stringify({ ok: true, value: 'https://xn--bcher-kva.example' })]),
      );
    });
  });

  describe('rejects what is not an origin', () => {
    it.each([
      ['https://example.com/path', ORIGIN_SHAPE],
      ['https://example.com/path/', ORIGIN_SHAPE],
      ['https://example.com//', ORIGIN_SHAPE],
      ['https://example.com?query=1', ORIGIN_SHAPE],
      ['https://example.com?', ORIGIN_SHAPE],
      ['https://example.com#fragment', ORIGIN_SHAPE],
      ['https://example.com#', ORIGIN_SHAPE],
      ['https://example.com/?a', ORIGIN_SHAPE],
      // backslashes (which WHATWG URL would turn into slashes)
      ['https://example.com\\', ORIGIN_SHAPE],
      ['https:\\\\example.com', ORIGIN_SHAPE],
      ['https://example.com\\@evil.com', ORIGIN_SHAPE],
      ['https://evil.com\\.example.com', ORIGIN_SHAPE],
      // whitespace inside
      ['https://exa mple.com', ORIGIN_SHAPE],
      ['https://example.com\tx', ORIGIN_SHAPE],
      ['https://exa\u3000mple.com', ORIGIN_SHAPE],
      ['https://example.com\nevil.com', ORIGIN_SHAPE],
      ['https:// example.com', ORIGIN_SHAPE],
      // other schemes, no scheme, no host
      ['example.com', ORIGIN_SHAPE],
      ['//example.com', ORIGIN_SHAPE],
      ['ftp://example.com', ORIGIN_SHAPE],
      ['javascript://example.com', ORIGIN_SHAPE],
      ['wss://example.com', ORIGIN_SHAPE],
      ['https:example.com', ORIGIN_SHAPE],
      ['https:/example.com', ORIGIN_SHAPE],
      ['https://', ORIGIN_SHAPE],
      ['https:///', ORIGIN_SHAPE],
      ['null', ORIGIN_SHAPE],
    ])('%j', (input, reason) => {
      expect(normalizeWhitelistDomain(input)).toEqual({ ok: false, reason });
    });

    it.each([
      'https://user@example.com',
      'https://user:password@example.com',
      'https://example.com@evil.com',
      'https://:@example.com',
      'https://@example.com',
    ])('credentials: %j', (input) => {
      expect(normalizeWhitelistDomain(input)).toEqual({ ok: false, reason: 'must not contain credentials' });
    });

    it.each([
      'https://ex%61mple.com',
      'https://%2A.example.com',
      'https://example.com%2Fevil.com',
      'https://example%2ecom',
      'https://example.com%00',
    ])('percent-encoding: %j', (input) => {
      expect(normalizeWhitelistDomain(input)).toEqual({ ok: false, reason: 'must not contain percent-encoding' });
    });

    it.each([
      'https://example.com:99999',
      'https://example.com:443:443',
      'https://example.com::443',
      'https://example.com:-1',
      'https://example.com:https',
      'https://:443',
      'https://example.com／evil.com', // full-width solidus maps to "/" inside the host
      'https://exa<mple.com',
      'https://[::1',
      'https://*.',
    ])('invalid authority: %j', (input) => {
      expect(normalizeWhitelistDomain(input)).toEqual({ ok: false, reason: 'is not a valid origin' });
    });

    it.each(['https://example.com.', 'https://localhost.', 'https://*.example.com.'])('trailing dot: %j', (input) => {
      expect(normalizeWhitelistDomain(input)).toEqual({ ok: false, reason: 'must have a host without a trailing dot' });
    });

    it.each(['', 'https://' + 'a'.repeat(300) + '.com'])('length: %j', (input) => {
      expect(normalizeWhitelistDomain(input)).toEqual({ ok: false, reason: 'must be 1 to 300 characters' });
    });

    it.each([undefined, null, 42, ['https://example.com'], { toString: () => 'https://example.com' }])('non-string %p', (input) => {
      expect(normalizeWhitelistDomain(input as unknown as string)).toEqual({ ok: false, reason: 'must be 1 to 300 characters' });
    });
  });

  describe('http only for loopback hosts', () => {
    it.each([
      'http://example.com',
      'http://localhost.evil.com',
      'http://127.0.0.1.evil.com',
      'http://evil.com:80',
      'http://10.0.0.1',
      'http://0.0.0.0',
      'http://[::2]',
      'http://*.example.com',
    ])('%j', (input) => {
      expect(normalizeWhitelistDomain(input)).toEqual({ ok: false, reason: HTTP_ONLY_LOOPBACK });
    });
  });

  describe('wildcards', () => {
    it.each([
      ['https://*.com', WILDCARD_BASE],
      ['https://*.localhost', WILDCARD_BASE],
      ['http://*.localhost', WILDCARD_BASE],
      ['https://*.127.0.0.1', WILDCARD_BASE],
      ['https://*.0x7f.1', WILDCARD_BASE], // an IPv4 address in disguise
      ['https://*.1', WILDCARD_BASE],
      ['https://*.[::1]', WILDCARD_BASE],
      // public suffixes (ICANN and private sections of the Public Suffix List)
      ['https://*.co.uk', WILDCARD_BASE],
      ['https://*.vercel.app', WILDCARD_BASE],
      ['https://*.github.io', WILDCARD_BASE],
      ['https://*.s3.amazonaws.com', WILDCARD_BASE],
      ['https://*.pages.dev', WILDCARD_BASE],
      ['https://*.CO.UK', WILDCARD_BASE],
      ['https://a.*.example.com', WILDCARD_POSITION],
      ['https://*example.com', WILDCARD_POSITION],
      ['https://*', WILDCARD_POSITION],
      ['https://**.example.com', WILDCARD_POSITION],
      ['https://*.*.example.com', WILDCARD_POSITION],
      ['https://ex*mple.com', WILDCARD_POSITION],
      ['https://example.*', WILDCARD_POSITION],
      ['https://*.example.*', WILDCARD_POSITION],
      ['https://example.com:*', WILDCARD_POSITION],
    ])('%j', (input, reason) => {
      expect(normalizeWhitelistDomain(input)).toEqual({ ok: false, reason });
    });
  });
});

describe('originMatchesWhitelist', () => {
  const whitelist = [
    'https://example.com',
    'https://*.apps.example.org',
    'http://localhost:4000',
    'https://xn--bcher-kva.example',
    'https://*.example.net:8443',
  ];
  const origin = (url: string) => new URL(url).origin;

  it.each([
    'https://example.com',
    'https://EXAMPLE.com:443/any/path?q#f',
    'https://a.apps.example.org',
    'https://xn--a-0ga.apps.example.org',
    'https://a-b-c.apps.example.org',
    'http://localhost:4000/callback',
    'https://bücher.example/',
    'https://x.example.net:8443',
  ])('accepts %s', (url) => {
    expect(originMatchesWhitelist(origin(url), whitelist)).toBe(true);
  });

  it.each([
    // lookalikes of https://example.com
    'https://example.com.evil.com',
    'https://evilexample.com',
    'https://example.com@evil.com',
    'https://example.co',
    'https://example.comm',
    'https://www.example.com',
    'https://exаmple.com', // Cyrillic "а"
    // other scheme or port of an allowed host
    'http://example.com',
    'https://example.com:8443',
    'http://localhost',
    'http://localhost:4001',
    'https://localhost:4000',
    'http://127.0.0.1:4000',
    // wildcard: exactly one label deep, never the base itself, same scheme and port
    'https://apps.example.org',
    'https://a.b.apps.example.org',
    'https://evilapps.example.org',
    'https://a.apps.example.org.evil.com',
    'http://a.apps.example.org',
    'https://a.apps.example.org:8443',
    'https://x.example.net',
    'https://x.example.net:9443',
    'https://-bad.apps.example.org',
    'https://bad-.apps.example.org',
    'https://a_b.apps.example.org',
  ])('rejects %s', (url) => {
    expect(originMatchesWhitelist(origin(url), whitelist)).toBe(false);
  });

  it('never matches an opaque origin', () => {
    expect(originMatchesWhitelist(origin('data:text/html,hi'), whitelist)).toBe(false);
    expect(originMatchesWhitelist('null', whitelist)).toBe(false);
  });

  it('a wildcard entry does not match its own literal spelling', () => {
    // new URL('https://*.example.com').origin is "https://*.example.com"; "*" is no subdomain.
    expect(originMatchesWhitelist(origin('https://*.apps.example.org/cb'), whitelist)).toBe(false);
    expect(originMatchesWhitelist('https://*.apps.example.org', ['https://*.apps.example.org'])).toBe(false);
  });

  it('rejects a label longer than 63 characters', () => {
    expect(originMatchesWhitelist(`https://${'a'.repeat(63)}.apps.example.org`, whitelist)).toBe(true);
    expect(originMatchesWhitelist(`https://${'a'.repeat(64)}.apps.example.org`, whitelist)).toBe(false);
  });

  it('matches nothing against an empty whitelist', () => {
    expect(originMatchesWhitelist('https://example.com', [])).toBe(false);
  });

  it('agrees with normalizeWhitelistDomain for every spelling of an entry', () => {
    const entries = ['HTTPS://Bücher.Example:443/', 'https://*.Example.ORG'].map((input) => {
      const result = normalizeWhitelistDomain(input);
      if (!result.ok) throw new Error(result.reason);
      return result.value;
    });
    expect(originMatchesWhitelist(origin('https://bücher.example/x'), entries)).toBe(true);
    expect(originMatchesWhitelist(origin('https://www.example.org/x'), entries)).toBe(true);
    expect(originMatchesWhitelist(origin('https://example.org/x'), entries)).toBe(false);
  });
});
