import { randomBytes } from 'node:crypto';
import { asciiBytes, base64url, formDecode, formEncode } from './encoding';

describe('encoding (no Node built-ins)', () => {
  it('base64url matches Node’s for every length', () => {
    for (let length = 0; length < 40; length++) {
      const bytes = randomBytes(length);
      expect(base64url(new Uint8Array(bytes))).toBe(bytes.toString('base64url'));
    }
  });

  it('refuses non-ASCII text', () => {
    expect(asciiBytes('aZ')).toEqual(new Uint8Array([97, 90]));
    expect(() => asciiBytes('é')).toThrow('not ASCII');
  });

  it('form-decodes, keeping a malformed escape', () => {
    expect(formDecode('a+b%2Bc%26')).toBe('a b+c&');
    expect(formDecode('100%')).toBe('100%');
  });

  it('form-encodes, leaving out undefined values', () => {
    expect(formEncode({ code: 'a b+c', redirect_uri: 'https://x/cb?y=1', skipped: undefined, amp: '&=' })).toBe(
      'code=a+b%2Bc&redirect_uri=https%3A%2F%2Fx%2Fcb%3Fy%3D1&amp=%26%3D',
    );
  });
});
