import { APPLICATION_TYPES, ApplicationType, validateCallbackUrl } from './callback-url';

const ALL = APPLICATION_TYPES;
const WEB_HTTP = 'must use https (http is allowed only for loopback hosts)';
const DESKTOP_HTTP = 'must use https or http on a loopback IP (127.0.0.1 or [::1])';
const MOBILE_HTTP = 'must use https or a reverse-domain custom scheme such as com.example.app:/callback';
const CUSTOM_SCHEME = 'a custom scheme must be a reverse domain name such as com.example.app';

function expectValid(input: string, types: readonly ApplicationType[], value: string) {
  for (const type of types) expect([type, validateCallbackUrl(input, type)]).toEqual([type, { ok: true, value }]);
}

function expectInvalid(input: string, types: readonly ApplicationType[], reason: string) {
  for (const type of types) expect([type, validateCallbackUrl(input, type)]).toEqual([type, { ok: false, reason }]);
}

describe('validateCallbackUrl', () => {
  describe('https, for every application type', () => {
    it.each([
      ['https://app.example.com/auth/callback', 'https://app.example.com/auth/callback'],
      ['HTTPS://APP.Example.com:443/cb', 'https://app.example.com/cb'],
      ['https://app.example.com:8443/cb?x=1&y=2', 'https://app.example.com:8443/cb?x=1&y=2'],
      ['https://bücher.example/cb', 'https://xn--bcher-kva.example/cb'],
      ['https://app.example.com', 'https://app.example.com/'],
      ['https://app.example.com/a/../cb', 'https://app.example.com/cb'],
      ['https://ex%61mple.com/a%20b', 'https://example.com/a%20b'],
    ])('%j → %s (WHATWG serialisation)', (input, value) => {
      expectValid(input, ALL, value);
    });
  });

  describe('http', () => {
    it('web: loopback hosts including localhost', () => {
      expectValid('http://localhost:3000/cb', ['web'], 'http://localhost:3000/cb');
      expectValid('http://127.0.0.1:8080/cb', ['web'], 'http://127.0.0.1:8080/cb');
      expectValid('http://[::1]/cb', ['web'], 'http://[::1]/cb');
      expectValid('HTTP://LOCALHOST/cb', ['web'], 'http://localhost/cb');
    });

    it('desktop: loopback IPs only, never localhost (RFC 8252 §8.3)', () => {
      expectValid('http://127.0.0.1:8080/cb', ['desktop'], 'http://127.0.0.1:8080/cb');
      expectValid('http://127.0.0.1/cb', ['desktop'], 'http://127.0.0.1/cb');
      expectValid('http://[::1]/cb', ['desktop'], 'http://[::1]/cb');
      expectInvalid('http://localhost:8080/cb', ['desktop'], DESKTOP_HTTP);
    });

    it('android and ios: never', () => {
      for (const url of ['http://127.0.0.1:8080/cb', 'http://[::1]/cb', 'http://localhost/cb', 'http://app.example.com/cb']) {
        expectInvalid(url, ['android', 'ios'], MOBILE_HTTP);
      }
    });

    it.each([
      'http://app.example.com/cb',
      'http://localhost.evil.com/cb',
      'http://127.0.0.1.evil.com/cb',
      'http://10.0.0.1/cb',
      'http://0.0.0.0/cb',
    ])('non-loopback %s is rejected for web and desktop', (url) => {
      expectInvalid(url, ['web'], WEB_HTTP);
      expectInvalid(url, ['desktop'], DESKTOP_HTTP);
    });
  });

  describe('private-use schemes', () => {
    it('android and ios accept reverse-domain schemes', () => {
      expectValid('com.example.app:/callback', ['android', 'ios'], 'com.example.app:/callback');
      expectValid('COM.Example.App:/callback', ['android', 'ios'], 'com.example.app:/callback');
      expectValid('com.example.app://host/callback', ['android', 'ios'], 'com.example.app://host/callback');
    });

    it('web and desktop reject them', () => {
      expectInvalid('com.example.app:/callback', ['web'], 'must use https');
      expectInvalid('com.example.app:/callback', ['desktop'], 'must use https or a loopback http URL');
    });

    it.each([
      'javascript:alert(1)',
      'JavaScript:alert(document.cookie)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'blob:https://example.com/uuid',
      'myapp:/callback',
      'vbscript:msgbox',
      'about:blank',
      'ftp://example.com/cb',
      'ws://example.com/cb',
    ])('dangerous or non-reverse-domain scheme %j is rejected for every type', (url) => {
      expectInvalid(url, ['web'], 'must use https');
      expectInvalid(url, ['desktop'], 'must use https or a loopback http URL');
      expectInvalid(url, ['android', 'ios'], CUSTOM_SCHEME);
    });
  });

  describe('never', () => {
    it.each(['https://app.example.com/cb#', 'https://app.example.com/cb#frag', 'com.example.app:/cb#x', 'http://127.0.0.1/cb#x'])(
      'fragments: %j',
      (url) => {
        expectInvalid(url, ALL, 'must not contain a fragment');
      },
    );

    it.each([
      'https://user@app.example.com/cb',
      'https://user:pw@app.example.com/cb',
      'https://app.example.com@evil.com/cb',
      'https://:pw@app.example.com/cb',
    ])('credentials: %j', (url) => {
      expectInvalid(url, ALL, 'must not contain credentials');
    });

    it.each(['https://app.example.com//evil.com/cb', 'com.example.app://host//cb', 'http://127.0.0.1//cb'])(
      'a path starting with //: %j',
      (url) => {
        expectInvalid(url, ALL, 'must not have a path starting with //');
      },
    );
    it.each([
      'https://app.example.com/c b',
      ' https://app.example.com/cb',
      'https://app.example.com/cb\n',
      'https://app.example.com/cb\t',
      'https:\\\\evil.com/cb',
      'https://app.example.com\\@evil.com',
      'https://app.example.com/\u3000',
    ])('whitespace or backslashes: %j', (url) => {
      expectInvalid(url, ALL, 'must not contain whitespace or backslashes');
    });

    it.each([
      '/relative/cb',
      'app.example.com/cb',
      '//app.example.com/cb',
      'https://exa<mple.com/cb',
      'https://app.example.com:99999/cb',
      'https://[::1/cb',
    ])('not absolute: %j', (url) => {
      expectInvalid(url, ALL, 'must be an absolute URL');
    });

    it('empty or longer than 2000 characters', () => {
      expectInvalid('', ALL, 'must be 1 to 2000 characters');
      expectInvalid(`https://app.example.com/${'a'.repeat(2000)}`, ALL, 'must be 1 to 2000 characters');
      expectValid(
        `https://a.io/${'a'.repeat(2000 - 'https://a.io/'.length)}`,
        ALL,
        `https://a.io/${'a'.repeat(2000 - 'https://a.io/'.length)}`,
      );
    });

    it.each([undefined, null, 7, ['https://app.example.com/cb']])('non-string %p', (input) => {
      expectInvalid(input as unknown as string, ALL, 'must be 1 to 2000 characters');
    });
  });
});
