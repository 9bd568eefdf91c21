import { randomBytes } from 'node:crypto';
import { formatLoginCode, LoginCodes, normalizeLoginCode } from './login-codes';

describe('LoginCodes', () => {
  const codes = new LoginCodes(randomBytes(32));
  const hash = randomBytes(32);

  it('derives six digits from a link token, the same each time, different per token', () => {
    const code = codes.codeFor('token-a');
    expect(code).toMatch(/^\d{6}$/);
    expect(codes.codeFor('token-a')).toBe(code);
    const others = new Set(Array.from({ length: 50 }, (_, index) => codes.codeFor(`token-${index}`)));
    expect(others.size).toBeGreaterThan(45);
  });

  it('depends on SECRETS_KEY', () => {
    expect(new LoginCodes(randomBytes(32)).codeFor('token-a')).not.toBe(codes.codeFor('token-a'));
  });

  it('checks a code against the stored verifier of its own attempt only', () => {
    const stored = codes.verifier(hash, '123456');
    expect(codes.matches(hash, '123456', stored)).toBe(true);
    expect(codes.matches(hash, '123457', stored)).toBe(false);
    expect(codes.matches(randomBytes(32), '123456', stored)).toBe(false);
    expect(codes.matches(hash, '123456', null)).toBe(false);
  });

  it('reads typed codes with spaces or dashes, and nothing else', () => {
    expect(normalizeLoginCode(' 123 456 ')).toBe('123456');
    expect(normalizeLoginCode('123-456')).toBe('123456');
    for (const bad of ['12345', '1234567', '12a456', '', null, 123456, '١٢٣٤٥٦']) expect(normalizeLoginCode(bad)).toBeNull();
    expect(formatLoginCode('012345')).toBe('012 345');
  });
});
