import { createHash, randomFillSync } from 'node:crypto';
import { base64url } from './encoding';
import { createPkcePair, randomToken } from './pkce';
import { CryptoProvider } from './platform';

const nodeCrypto: CryptoProvider = {
  getRandomValues: (array) => randomFillSync(array),
  sha256: async (data) => new Uint8Array(createHash('sha256').update(data).digest()),
};

describe('PKCE', () => {
  it('makes a 43-character verifier and its S256 challenge (RFC 7636 §4.2)', async () => {
    const { verifier, challenge } = await createPkcePair(nodeCrypto);
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(challenge).toBe(createHash('sha256').update(verifier).digest('base64url'));
    expect((await createPkcePair(nodeCrypto)).verifier).not.toBe(verifier);
  });

  it('matches the example of RFC 7636 Appendix B', async () => {
    const bytes = [
      116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83,
      132, 141, 121,
    ];
    const fixed: CryptoProvider = { ...nodeCrypto, getRandomValues: (array) => (array.set(bytes), array) };
    expect(await createPkcePair(fixed)).toEqual({
      verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    });
  });

  it('makes states from the random bytes it is given', () => {
    expect(randomToken({ ...nodeCrypto, getRandomValues: (array) => array.fill(7) })).toBe(base64url(new Uint8Array(32).fill(7)));
    expect(randomToken(nodeCrypto, 16)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});
