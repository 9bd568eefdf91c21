import { createValidationPipe, ProblemException } from '@sesame/common';
import { AuthenticateDirectDto } from './dto/authenticate-direct.dto';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const valid = { email: 'ada@example.com', redirect_uri: 'https://app.example.com/cb', state: 'st' };

async function validate(body: unknown): Promise<{ ok: true; value: AuthenticateDirectDto } | { ok: false; fields: string[] }> {
  try {
    const value = await createValidationPipe().transform(body, { type: 'body', metatype: AuthenticateDirectDto });
    return { ok: true, value };
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemException);
    const problem = error as ProblemException;
    expect(problem.code).toBe('validation_failed');
    return { ok: false, fields: (problem.extensions.errors as { field: string }[]).map((entry) => entry.field) };
  }
}

describe('AuthenticateDirectDto', () => {
  it('accepts the minimal body', async () => {
    expect(await validate(valid)).toMatchObject({ ok: true });
  });

  describe('PKCE', () => {
    it('accepts an S256 challenge with its method', async () => {
      expect(await validate({ ...valid, code_challenge: CHALLENGE, code_challenge_method: 'S256' })).toMatchObject({ ok: true });
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a challenge without a method (RFC 7636 would read it as plain)', { code_challenge: CHALLENGE }, 'code_challenge_method'],
      ['a method without a challenge (it would silently mean no PKCE)', { code_challenge_method: 'S256' }, 'code_challenge'],
      ['the plain method', { code_challenge: CHALLENGE, code_challenge_method: 'plain' }, 'code_challenge_method'],
      [
        'a challenge that is not 43 base64url characters',
        { code_challenge: `${CHALLENGE}A`, code_challenge_method: 'S256' },
        'code_challenge',
      ],
      ['a padded challenge', { code_challenge: `${CHALLENGE.slice(0, 42)}=`, code_challenge_method: 'S256' }, 'code_challenge'],
      ['a challenge that is not a string', { code_challenge: 43, code_challenge_method: 'S256' }, 'code_challenge'],
      ['a null challenge with a method', { code_challenge: null, code_challenge_method: 'S256' }, 'code_challenge'],
    ])('refuses %s', async (_, pkce, field) => {
      const result = await validate({ ...valid, ...pkce });
      expect(result.ok).toBe(false);
      expect(result.ok === false && result.fields).toContain(field);
    });
  });

  describe('translations', () => {
    it('accepts every known key', async () => {
      const translations = { subject: 'a', greeting: 'b', intro: 'c', button: 'd', expiry: 'e', ignore: 'f' };
      expect(await validate({ ...valid, translations })).toMatchObject({ ok: true, value: { translations } });
    });

    it.each<[string, unknown, string]>([
      ['an unknown key', { footer: 'x' }, 'translations.footer'],
      ['a value over 300 characters', { subject: 'x'.repeat(301) }, 'translations.subject'],
      ['a line break', { intro: 'a\r\nBcc: someone@example.com' }, 'translations.intro'],
      ['a tab', { button: 'a\tb' }, 'translations.button'],
      ['DEL', { ignore: 'a\u007fb' }, 'translations.ignore'],
      ['a number', { expiry: 5 }, 'translations.expiry'],
      ['an array', ['x'], 'translations'],
      ['a string', 'x', 'translations'],
    ])('refuses %s', async (_, translations, field) => {
      const result = await validate({ ...valid, translations });
      expect(result.ok === false && result.fields).toContain(field);
    });
  });

  it.each([
    ['email', { email: undefined }],
    ['redirect_uri', { redirect_uri: undefined }],
    ['state', { state: undefined }],
    ['state', { state: '' }],
    ['state', { state: 's'.repeat(1025) }],
    ['email', { email: `${'a'.repeat(309)}@example.com` }],
    ['redirect_uri', { redirect_uri: `https://a.io/${'a'.repeat(2000)}` }],
    ['prompt', { prompt: 'x' }],
    ['nonce', { nonce: '' }],
    ['nonce', { nonce: 'n'.repeat(513) }],
    ['nonce', { nonce: 'a\nb' }],
    ['nonce', { nonce: 42 }],
  ])('refuses a bad or unknown %s', async (field, change) => {
    const result = await validate({ ...valid, ...change });
    expect(result.ok === false && result.fields).toContain(field);
  });
});
