// The peer: oidc-provider (the certified Node OpenID provider) configured to do what Sesame's
// /v1/verify and /v1/userinfo do, with its store in Redis.
//
//   node bench/peer-server.mjs serve   listens on PEER_PORT (token endpoint /token, userinfo /me)
//   node bench/peer-server.mjs seed    creates Grants, AuthorizationCodes and AccessTokens through
//                                      the provider's own models, in the same Redis, and writes
//                                      the request lines the load generator sends
//
// Both build the same Provider: one confidential web client (client_secret_basic, PKCE S256
// required, ES256-signed id_token encrypted as a JWE with alg "dir" and enc "A256GCM", whose key
// OpenID Connect derives from SHA-256 of the client secret, as Sesame does), opaque access
// tokens for userinfo (scope openid email), and findAccount answering the claims from memory.
//
// Environment: PEER_PORT, PEER_ISSUER, REDIS_URL, PEER_REDIS_PREFIX, PEER_CLIENT_ID,
// PEER_CLIENT_SECRET, PEER_REDIRECT_URI, and for seed: PEER_SEED (JSON:
// {"accounts": n, "tokens": {"count", "file"}, "codes": {"count", "file"}}).
// It is an ES module because oidc-provider is one; it runs from bench/ as it is.
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { URLSearchParams } from 'node:url';
import Redis from 'ioredis';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

const env = process.env;
const mode = process.argv[2] ?? 'serve';
const prefix = env.PEER_REDIS_PREFIX ?? 'peer';
const redis = new Redis(env.REDIS_URL ?? 'redis://127.0.0.1:6379', { enableAutoPipelining: mode === 'seed' });

const CONSUMABLE = new Set(['AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

const grantKey = (id) => `${prefix}:grant:${id}`;
const uidKey = (uid) => `${prefix}:uid:${uid}`;
const userCodeKey = (userCode) => `${prefix}:userCode:${userCode}`;

/** oidc-provider's adapter interface over ioredis: one key per model instance, a hash for consumable ones. */
class RedisAdapter {
  constructor(name) {
    this.name = name;
  }

  key(id) {
    return `${prefix}:${this.name}:${id}`;
  }

  async upsert(id, payload, expiresIn) {
    const key = this.key(id);
    const multi = redis.multi();
    if (CONSUMABLE.has(this.name)) {
      multi.del(key);
      multi.hset(key, 'payload', JSON.stringify(payload));
    } else {
      multi.set(key, JSON.stringify(payload));
    }
    if (expiresIn) multi.expire(key, expiresIn);
    if (GRANTABLE.has(this.name) && payload.grantId) {
      multi.rpush(grantKey(payload.grantId), key);
      if (expiresIn) {
        multi.expire(grantKey(payload.grantId), expiresIn, 'NX');
        multi.expire(grantKey(payload.grantId), expiresIn, 'GT');
      }
    }
    if (payload.userCode) multi.set(userCodeKey(payload.userCode), id, ...(expiresIn ? ['EX', expiresIn] : []));
    if (payload.uid) multi.set(uidKey(payload.uid), id, ...(expiresIn ? ['EX', expiresIn] : []));
    await multi.exec();
  }

  async find(id) {
    if (CONSUMABLE.has(this.name)) {
      const data = await redis.hgetall(this.key(id));
      if (!data || !data.payload) return undefined;
      return { ...JSON.parse(data.payload), ...(data.consumed ? { consumed: Number(data.consumed) } : undefined) };
    }
    const data = await redis.get(this.key(id));
    return data ? JSON.parse(data) : undefined;
  }

  async findByUid(uid) {
    const id = await redis.get(uidKey(uid));
    return id ? this.find(id) : undefined;
  }

  async findByUserCode(userCode) {
    const id = await redis.get(userCodeKey(userCode));
    return id ? this.find(id) : undefined;
  }

  async consume(id) {
    await redis.hset(this.key(id), 'consumed', Math.floor(Date.now() / 1000));
  }

  async destroy(id) {
    await redis.del(this.key(id));
  }

  async revokeByGrantId(grantId) {
    const keys = await redis.lrange(grantKey(grantId), 0, -1);
    const multi = redis.multi();
    for (const key of keys) multi.del(key);
    multi.del(grantKey(grantId));
    await multi.exec();
  }
}

const clientId = env.PEER_CLIENT_ID ?? 'bench-client';
const clientSecret = env.PEER_CLIENT_SECRET ?? randomBytes(32).toString('base64url');
const redirectUri = env.PEER_REDIRECT_URI ?? 'https://bench.example/callback';

async function createProvider() {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: randomBytes(8).toString('hex'), alg: 'ES256', use: 'sig' };
  return new Provider(env.PEER_ISSUER ?? 'http://127.0.0.1:3020', {
    adapter: RedisAdapter,
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'ES256',
        id_token_encrypted_response_alg: 'dir',
        id_token_encrypted_response_enc: 'A256GCM',
      },
    ],
    jwks: { keys: [jwk] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The id_token carries email and email_verified, as Sesame's does.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      encryption: { enabled: true },
      userinfo: { enabled: true },
    },
    pkce: { required: () => true },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, email: `${sub}@bench.example`, email_verified: true, name: 'Bench User' }),
    }),
    // Pre-generated codes must outlive the run (Sesame's are given an hour too).
    ttl: { AuthorizationCode: 3600, AccessToken: 3600, Grant: 3600, IdToken: 3600, Interaction: 600, Session: 3600 },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
  });
}

/** Runs `work` for 0..count-1 with at most `parallel` in flight. */
async function each(count, parallel, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

async function grantFor(provider, accountId) {
  const grant = new provider.Grant({ accountId, clientId });
  grant.addOIDCScope('openid email');
  return grant.save();
}

async function seed(provider) {
  const plan = JSON.parse(env.PEER_SEED ?? '{}');
  const accounts = plan.accounts ?? 1000;
  const accountOf = (i) => `peer-user-${i % accounts}`;
  if (plan.tokens) {
    const tokens = new Array(plan.tokens.count);
    await each(plan.tokens.count, 200, async (i) => {
      const accountId = accountOf(i);
      const grantId = await grantFor(provider, accountId);
      const token = new provider.AccessToken({ accountId, clientId, grantId, gty: 'authorization_code', scope: 'openid email' });
      tokens[i] = await token.save();
    });
    writeFileSync(plan.tokens.file, `${tokens.join('\n')}\n`);
  }
  if (plan.codes) {
    const lines = new Array(plan.codes.count);
    const authTime = Math.floor(Date.now() / 1000);
    await each(plan.codes.count, 200, async (i) => {
      const accountId = accountOf(i);
      const grantId = await grantFor(provider, accountId);
      const verifier = randomBytes(32).toString('base64url');
      const code = new provider.AuthorizationCode({
        accountId,
        clientId,
        grantId,
        authTime,
        scope: 'openid email',
        redirectUri,
        codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
        codeChallengeMethod: 'S256',
      });
      const value = await code.save();
      lines[i] = new URLSearchParams({
        grant_type: 'authorization_code',
        code: value,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }).toString();
    });
    writeFileSync(plan.codes.file, `${lines.join('\n')}\n`);
  }
}

async function main() {
  const provider = await createProvider();
  if (mode === 'seed') {
    await seed(provider);
    await redis.quit();
    return;
  }
  provider.on('server_error', (_ctx, error) => process.stderr.write(`peer server_error: ${error.stack ?? error}\n`));
  const server = createServer(provider.callback());
  server.keepAliveTimeout = 65_000;
  const port = Number(env.PEER_PORT ?? 3020);
  server.listen(port, '127.0.0.1', () => process.stdout.write(`peer listening on ${port}\n`));
  const stop = () => {
    server.close();
    server.closeAllConnections();
    void redis.quit().finally(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
