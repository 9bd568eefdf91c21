import { directRegistrationBinding, directSignInBinding, DirectSignInRequest } from './direct-passkey-binding';

describe('direct passkey bindings', () => {
  const request: DirectSignInRequest = {
    applicationId: 'app-1',
    origin: 'https://app.example.com',
    redirectUri: 'https://app.example.com/callback',
    state: 'state',
    codeChallenge: 'c'.repeat(43),
    nonce: null,
  };

  it('a sign-in challenge answers only the same application, origin and login', () => {
    const bound = directSignInBinding(request);
    expect(directSignInBinding({ ...request })).toEqual(bound);
    for (const change of [
      { applicationId: 'app-2' },
      { origin: 'https://shop.example.com' },
      { redirectUri: 'https://app.example.com/other' },
      { state: 'another' },
      { codeChallenge: 'd'.repeat(43) },
      { nonce: 'n' },
    ]) {
      expect(directSignInBinding({ ...request, ...change })).not.toEqual(bound);
    }
    // Parts never run into each other.
    expect(directSignInBinding({ ...request, state: 'ab', codeChallenge: 'c' })).not.toEqual(
      directSignInBinding({ ...request, state: 'a', codeChallenge: 'bc' }),
    );
  });

  it('a registration binding differs by application and origin, and from any sign-in binding', () => {
    const bound = directRegistrationBinding('app-1', 'https://app.example.com');
    expect(directRegistrationBinding('app-2', 'https://app.example.com')).not.toEqual(bound);
    expect(directRegistrationBinding('app-1', 'https://shop.example.com')).not.toEqual(bound);
    expect(directSignInBinding(request)).not.toEqual(bound);
  });
});
