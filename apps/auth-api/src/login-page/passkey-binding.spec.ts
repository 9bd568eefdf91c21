import { AuthorizeRequest } from './authorize-request';
import { challengeOfClientData, registrationBinding, signInBinding } from './passkey-binding';

const REQUEST: AuthorizeRequest = {
  clientId: 'client',
  redirectUri: 'https://app.example.com/callback',
  state: 's',
  codeChallenge: 'c'.repeat(43),
  nonce: null,
  uiLocales: undefined,
  loginHint: undefined,
};

describe('passkey bindings', () => {
  it('a sign-in challenge is bound to the browser and every part of the request', () => {
    const binding = signInBinding('cookie', REQUEST);
    expect(signInBinding('cookie', { ...REQUEST })).toEqual(binding);
    expect(signInBinding('other cookie', REQUEST)).not.toEqual(binding);
    for (const change of [
      { state: 't' },
      { redirectUri: 'https://app.example.com/other' },
      { codeChallenge: 'd'.repeat(43) },
      { nonce: 'n' },
    ])
      expect(signInBinding('cookie', { ...REQUEST, ...change })).not.toEqual(binding);
  });

  it('parts cannot be shifted between fields, and purposes never share a binding', () => {
    expect(signInBinding('cookie', { ...REQUEST, state: 'ab', nonce: null })).not.toEqual(
      signInBinding('cookie', { ...REQUEST, state: 'a', nonce: 'b' }),
    );
    expect(registrationBinding('a', 'b')).not.toEqual(registrationBinding('b', 'a'));
  });
});

describe('challengeOfClientData', () => {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('reads the challenge of clientDataJSON', () => {
    expect(challengeOfClientData(encode({ type: 'webauthn.get', challenge: 'A'.repeat(43) }))).toBe('A'.repeat(43));
  });

  it('is null for anything else', () => {
    for (const value of [
      undefined,
      42,
      'not base64 !',
      encode('text'),
      encode({ challenge: 'short' }),
      encode({ challenge: 'a/b'.repeat(10) }),
      'x'.repeat(5000),
    ])
      expect(challengeOfClientData(value)).toBeNull();
  });
});
