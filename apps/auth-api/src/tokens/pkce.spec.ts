import { verifierMatches } from './pkce';

describe('verifierMatches (RFC 7636 S256)', () => {
  // The example of RFC 7636 Appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('accepts the verifier of the challenge', () => {
    expect(verifierMatches(verifier, challenge)).toBe(true);
  });

  it.each([
    ['another verifier', 'eBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk'],
    ['a verifier shorter than 43 characters', verifier.slice(0, 42)],
    ['a verifier longer than 128 characters', 'a'.repeat(129)],
    ['characters outside the unreserved set', `${verifier.slice(0, 42)}+`],
    ['the challenge itself (plain method)', challenge],
  ])('rejects %s', (_, candidate) => {
    expect(verifierMatches(candidate, challenge)).toBe(false);
  });
});
