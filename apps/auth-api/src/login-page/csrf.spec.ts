import { randomBytes } from 'node:crypto';
import { CsrfTokens } from './csrf';

describe('CsrfTokens (double submit, HMAC-bound)', () => {
  const tokens = new CsrfTokens(randomBytes(32));

  it('accepts the form value issued with the cookie, and re-derives it for the same cookie', () => {
    const { cookieValue, formValue } = tokens.issue();
    expect(cookieValue).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(tokens.verify(cookieValue, formValue)).toBe(true);
    expect(tokens.formValueFor(cookieValue)).toBe(formValue);
  });

  it('issues a fresh pair each time', () => {
    expect(tokens.issue().cookieValue).not.toBe(tokens.issue().cookieValue);
  });

  it.each([
    ['no cookie', (pair: { cookieValue: string; formValue: string }) => [undefined, pair.formValue]],
    ['no form value', (pair: { cookieValue: string; formValue: string }) => [pair.cookieValue, undefined]],
    ['the cookie value copied into the form', (pair: { cookieValue: string; formValue: string }) => [pair.cookieValue, pair.cookieValue]],
    ['another session’s form value', (pair: { cookieValue: string; formValue: string }) => [pair.cookieValue, tokens.issue().formValue]],
    ['a truncated form value', (pair: { cookieValue: string; formValue: string }) => [pair.cookieValue, pair.formValue.slice(1)]],
  ])('refuses %s', (_, pick) => {
    const [cookie, form] = pick(tokens.issue());
    expect(tokens.verify(cookie, form)).toBe(false);
  });

  it('a pair made with another key (another deployment) does not verify', () => {
    const { cookieValue, formValue } = new CsrfTokens(randomBytes(32)).issue();
    expect(tokens.verify(cookieValue, formValue)).toBe(false);
  });
});
