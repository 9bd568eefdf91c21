import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

const key = Buffer.from('00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff', 'hex');
const box = new SecretBox(key);

type Parts = [string, string, string, string];
const split = (sealed: string) => sealed.split('.') as Parts;
const join = (parts: string[]) => parts.join('.');
const b64 = (value: string) => Buffer.from(value, 'base64url');
const flipBit = (part: string, byte = 0) => {
  const bytes = b64(part);
  bytes[byte] ^= 0x01;
  return bytes.toString('base64url');
};

describe('SecretBox', () => {
  it('refuses keys that are not 32 bytes', () => {
    expect(() => new SecretBox(Buffer.alloc(16))).toThrow('SecretBox needs a 32-byte key');
    expect(() => new SecretBox(Buffer.alloc(33))).toThrow('SecretBox needs a 32-byte key');
    expect(() => new SecretBox(Buffer.alloc(0))).toThrow('SecretBox needs a 32-byte key');
  });

  describe('round trip', () => {
    it.each(['cs_secret', '', 'ünïcödé ✓ 🔐', 'a'.repeat(10_000), 'line\nbreak\0nul', '.'])('%j', (plaintext) => {
      expect(box.decrypt(box.encrypt(plaintext, 'client-id'), 'client-id')).toBe(plaintext);
    });

    it('without associated data', () => {
      expect(box.decrypt(box.encrypt('secret'))).toBe('secret');
    });

    it('produces v1.<iv>.<tag>.<ciphertext> in base64url with a 96-bit IV and a 128-bit tag', () => {
      const sealed = box.encrypt('secret', 'ad');
      expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/);
      const [, iv, tag, ciphertext] = split(sealed);
      expect(b64(iv)).toHaveLength(12);
      expect(b64(tag)).toHaveLength(16);
      expect(b64(ciphertext)).toHaveLength('secret'.length);
      expect(sealed).not.toContain('secret');
    });

    it('never seals the same plaintext the same way twice (fresh IV)', () => {
      const sealed = Array.from({ length: 50 }, () => box.encrypt('same', 'ad'));
      expect(new Set(sealed).size).toBe(50);
      expect(new Set(sealed.map((value) => split(value)[1])).size).toBe(50);
    });
  });

  describe('tamper detection', () => {
    const sealed = box.encrypt('cs_the-client-secret', 'client-1');
    const [version, iv, tag, ciphertext] = split(sealed);

    it.each([
      ['a flipped ciphertext bit', () => join([version, iv, tag, flipBit(ciphertext)])],
      ['a flipped last ciphertext bit', () => join([version, iv, tag, flipBit(ciphertext, b64(ciphertext).length - 1)])],
      ['a flipped tag bit', () => join([version, iv, flipBit(tag, 15), ciphertext])],
      ['a flipped IV bit', () => join([version, flipBit(iv), tag, ciphertext])],
      ['a truncated ciphertext', () => join([version, iv, tag, b64(ciphertext).subarray(1).toString('base64url')])],
      ['an extended ciphertext', () => join([version, iv, tag, Buffer.concat([b64(ciphertext), Buffer.from([0])]).toString('base64url')])],
      ['an empty ciphertext', () => join([version, iv, tag, ''])],
      ['a tag truncated to 4 bytes', () => join([version, iv, b64(tag).subarray(0, 4).toString('base64url'), ciphertext])],
      ['a tag truncated to 12 bytes', () => join([version, iv, b64(tag).subarray(0, 12).toString('base64url'), ciphertext])],
      ['an all-zero tag', () => join([version, iv, Buffer.alloc(16).toString('base64url'), ciphertext])],
      ['a different IV', () => join([version, randomBytes(12).toString('base64url'), tag, ciphertext])],
      ['an empty IV', () => join([version, '', tag, ciphertext])],
      ['an empty tag', () => join([version, iv, '', ciphertext])],
      ['another version', () => join(['v2', iv, tag, ciphertext])],
      ['no version', () => join([iv, tag, ciphertext])],
      ['a missing part', () => join([version, iv, tag])],
      ['the ciphertext of another value', () => join([version, iv, tag, split(box.encrypt('cs_other-secret-xxxxx', 'client-1'))[3]])],
      ['the tag of another value', () => join([version, iv, split(box.encrypt('cs_the-client-secret', 'client-1'))[2], ciphertext])],
      ['garbage', () => 'not a sealed secret'],
      ['an empty string', () => ''],
    ] as [string, () => string][])('rejects %s', (_, forge) => {
      expect(() => box.decrypt(forge(), 'client-1')).toThrow();
    });

    it('still opens the untouched value', () => {
      expect(box.decrypt(sealed, 'client-1')).toBe('cs_the-client-secret');
    });
  });

  describe('associated data', () => {
    const sealed = box.encrypt('cs_secret', 'client-1');

    it.each([['client-2'], [''], ['client-1 '], ['CLIENT-1'], ['client-']])('rejects %j instead of "client-1"', (associatedData) => {
      expect(() => box.decrypt(sealed, associatedData)).toThrow();
    });

    it('rejects missing associated data', () => {
      expect(() => box.decrypt(sealed)).toThrow();
    });

    it('rejects associated data where none was sealed', () => {
      expect(() => box.decrypt(box.encrypt('cs_secret'), 'client-1')).toThrow();
    });
  });

  it('a value sealed with another key does not open', () => {
    const other = new SecretBox(randomBytes(32));
    expect(() => box.decrypt(other.encrypt('cs_secret', 'client-1'), 'client-1')).toThrow();
    expect(() => other.decrypt(box.encrypt('cs_secret', 'client-1'), 'client-1')).toThrow();
  });
});
