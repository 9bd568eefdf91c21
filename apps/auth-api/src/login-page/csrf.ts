import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const CSRF_COOKIE = 'sesame_csrf';

/**
 * Double-submit protection for the hosted login form: a random value in an HttpOnly,
 * SameSite=Strict cookie, and its HMAC (keyed with a key derived from SECRETS_KEY) in the form.
 * A cross-site form post cannot carry the cookie (SameSite=Strict); the HMAC keeps a form value
 * from being made up without a matching cookie.
 */
export class CsrfTokens {
  private readonly key: Buffer;

  constructor(secretsKey: Buffer) {
    this.key = createHmac('sha256', secretsKey).update('sesame hosted login csrf').digest();
  }

  issue(): { cookieValue: string; formValue: string } {
    const cookieValue = randomBytes(32).toString('base64url');
    return { cookieValue, formValue: this.sign(cookieValue) };
  }

  /** The form value for an existing cookie (re-rendering the form keeps the same cookie). */
  formValueFor(cookieValue: string): string {
    return this.sign(cookieValue);
  }

  verify(cookieValue: string | undefined, formValue: string | undefined): boolean {
    if (!cookieValue || !formValue) return false;
    const expected = Buffer.from(this.sign(cookieValue));
    const presented = Buffer.from(formValue);
    return expected.length === presented.length && timingSafeEqual(expected, presented);
  }

  private sign(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('base64url');
  }
}
