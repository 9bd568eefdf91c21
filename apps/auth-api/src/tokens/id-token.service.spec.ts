import { parseEnvironment } from '@sesame/common';
import { compactDecrypt, createLocalJWKSet, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import { createHash } from 'node:crypto';
import { IdTokenService } from './id-token.service';
import { SigningKeysService } from './signing-keys.service';

describe('IdTokenService', () => {
  const config = parseEnvironment({
    DATABASE_URL: 'postgres://localhost/unused',
    SECRETS_KEY: '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
    PUBLIC_BASE_URL: 'https://id.example.com/api',
    ID_TOKEN_TTL_SECONDS: '900',
  });
  const now = new Date('2030-01-02T03:04:05.678Z');
  const subject = {
    userId: 'user-1',
    email: 'ada@example.com',
    emailVerified: true,
    organizationId: 'org-1',
    authTime: new Date('2030-01-02T03:00:00.000Z'),
    nonce: null,
  };
  let service: IdTokenService;
  let jwks: ReturnType<typeof createLocalJWKSet>;

  beforeAll(async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'key-1', alg: 'ES256', use: 'sig' }] });
    const keys = { signingKey: async () => ({ kid: 'key-1', privateKey }) } as unknown as SigningKeysService;
    service = new IdTokenService(keys, config);
  });

  const verifyOptions = { issuer: 'https://id.example.com/api/v1', audience: 'client-1', currentDate: now };

  it('signs an ES256 JWT with the claims of the design, for native apps and signed-only web apps', async () => {
    const token = await service.issue(subject, { clientId: 'client-1', encryptionKey: null }, now);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: 'key-1', typ: 'JWT' });
    const { payload } = await jwtVerify(token, jwks, verifyOptions);
    expect(payload).toEqual({
      iss: 'https://id.example.com/api/v1',
      sub: 'user-1',
      aud: 'client-1',
      iat: Math.floor(now.getTime() / 1000),
      exp: Math.floor(now.getTime() / 1000) + 900,
      auth_time: Math.floor(subject.authTime.getTime() / 1000),
      email: 'ada@example.com',
      email_verified: true,
      org_id: 'org-1',
    });
  });

  it('encrypts it for web apps as a compact JWE (dir, A256GCM, cty JWT) under SHA-256 of the client secret', async () => {
    const secretHash = createHash('sha256').update('the-client-secret').digest();
    const token = await service.issue(subject, { clientId: 'client-1', encryptionKey: secretHash }, now);
    expect(token.split('.')).toHaveLength(5);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'dir', enc: 'A256GCM', cty: 'JWT' });
    const { plaintext } = await compactDecrypt(token, secretHash);
    const { payload } = await jwtVerify(new TextDecoder().decode(plaintext), jwks, verifyOptions);
    expect(payload.sub).toBe('user-1');
    await expect(compactDecrypt(token, createHash('sha256').update('another-secret').digest())).rejects.toThrow();
  });

  it('carries the nonce of the authentication request back (OpenID Connect Core §3.1.2.1)', async () => {
    const token = await service.issue({ ...subject, nonce: 'n-0S6_WzA2Mj' }, { clientId: 'client-1', encryptionKey: null }, now);
    const { payload } = await jwtVerify(token, jwks, verifyOptions);
    expect(payload.nonce).toBe('n-0S6_WzA2Mj');
  });

  it('publishes its issuer as PUBLIC_BASE_URL + /v1', () => {
    expect(service.issuerUrl).toBe('https://id.example.com/api/v1');
  });
});
