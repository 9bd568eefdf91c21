import { compactDecrypt, exportJWK, importJWK, jwtVerify } from 'jose';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { encryptDirA256Gcm, signEs256 } from './compact-jose';

describe('compact JOSE on node:crypto, checked with the jose library', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  it('signs an ES256 JWT that jose verifies', async () => {
    const jwt = signEs256({ alg: 'ES256', kid: 'k1', typ: 'JWT' }, { sub: 'user', aud: 'client', exp: 4102444800 }, privateKey);
    const key = await importJWK(await exportJWK(publicKey), 'ES256');
    const { payload, protectedHeader } = await jwtVerify(jwt, key, { audience: 'client' });
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: 'k1', typ: 'JWT' });
    expect(payload.sub).toBe('user');
  });

  it('rejects a tampered payload', async () => {
    const [header, , signature] = signEs256({ alg: 'ES256' }, { sub: 'user' }, privateKey).split('.');
    const forged = `${header}.${Buffer.from(JSON.stringify({ sub: 'admin' })).toString('base64url')}.${signature}`;
    await expect(jwtVerify(forged, await importJWK(await exportJWK(publicKey), 'ES256'))).rejects.toThrow();
  });

  it('encrypts a JWE (dir, A256GCM) that jose decrypts with the key, and only with it', async () => {
    const key = createHash('sha256').update('client secret').digest();
    const jwe = encryptDirA256Gcm('inner.jwt.value', key, { cty: 'JWT' });
    expect(jwe.split('.')).toHaveLength(5);
    const { plaintext, protectedHeader } = await compactDecrypt(jwe, key);
    expect(protectedHeader).toEqual({ alg: 'dir', enc: 'A256GCM', cty: 'JWT' });
    expect(new TextDecoder().decode(plaintext)).toBe('inner.jwt.value');
    await expect(compactDecrypt(jwe, createHash('sha256').update('another secret').digest())).rejects.toThrow();
  });
});
