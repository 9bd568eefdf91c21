/**
 * The floor: a bare node:http server doing the same essential work as Sesame on the three
 * measured routes, without the framework, so that Sesame/floor says what Nest, TypeORM, the
 * guards and the pipes cost. Same Postgres tables and SQL, same pg pool size, same hashing,
 * same Redis Lua script (SLIDING_WINDOW_SCRIPT from @sesame/throttler, with the same buckets and
 * windows), same ES256 + JWE work; no validation framework, no DI, no routing library.
 *
 * GET  /api/v1/userinfo            SHA-256(token) → the userinfo query (token joined to user)
 * POST /api/v1/verify              global per-IP limit (Lua) → Basic → application by client_id,
 *                                  HMAC verifier compare → tenant endpoint limit (Lua) → form →
 *                                  transaction: claim the code (conditional UPDATE … RETURNING),
 *                                  PKCE S256, insert the access token → ES256 id_token in a JWE
 *                                  (dir, A256GCM, key = SHA-256(client secret))
 * GET  /api/v2/organization/{id}   Bearer API key → SHA-256 → key cached (5 s, like ApiKeyVerifier):
 *                                  global per-IP and plan limit (minute/hour/day) in one Lua call;
 *                                  not cached: global limit, key lookup, plan limit → organization query
 * GET  /api/v2/organization/{id}/login_attempt
 *                                  the same, then the login activity's newest page (20 and a cursor)
 * POST /api/v1/authenticate_direct global per-IP and endpoint limit in one Lua call for a cached client
 *                                  (5 s, like ClientVerifier) → Basic, HMAC verifier compare → JSON →
 *                                  the application's context (cached 5 s, like ClientContexts) →
 *                                  transaction: the address's throttle row made (or, when it has
 *                                  one, locked and saved), the attempt inserted with blocked? in the
 *                                  same statement (token sealed with AES-256-GCM) → the mail job
 *                                  added to Bull → mail_queued_at
 *                                  (written for concurrent requests together, as Sesame does)
 *
 * Environment: FLOOR_PORT, HOST, DATABASE_URL, DATABASE_POOL_SIZE, REDIS_URL, REDIS_PREFIX,
 * PLAN_LIMITS, ENDPOINT_LIMITS, GLOBAL_RATE_LIMIT (JSON as for Sesame; only the pro plan is
 * read), PUBLIC_BASE_URL, SECRETS_KEY (the client secret verifiers are keyed from it).
 */
import { createCipheriv, createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { LookupBatcher } from '@sesame/common';
import { SLIDING_WINDOW_SCRIPT } from '@sesame/throttler';
import Queue from 'bull';
import Redis from 'ioredis';
import { CompactEncrypt, CryptoKey, generateKeyPair, SignJWT } from 'jose';
import { Pool } from 'pg';

const env = process.env;
const port = Number(env.FLOOR_PORT ?? 3010);
const pool = new Pool({
  connectionString: env.DATABASE_URL,
  max: Number(env.DATABASE_POOL_SIZE ?? 10),
  statement_timeout: 10_000,
  application_name: 'sesame-floor',
});
const redis = new Redis(env.REDIS_URL ?? 'redis://127.0.0.1:6379', { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
redis.defineCommand('slidingWindow', { lua: SLIDING_WINDOW_SCRIPT });
const throttlePrefix = `${env.REDIS_PREFIX ?? 'floor'}:throttle:`;
const issuer = `${(env.PUBLIC_BASE_URL ?? 'http://localhost:3000/api').replace(/\/+$/, '')}/v1`;

const MINUTE = 60_000;
const planLimits = {
  minute: 10,
  hour: 100,
  day: 1000,
  ...((JSON.parse(env.PLAN_LIMITS ?? '{}') as Record<string, Record<string, number>>).pro ?? {}),
};
const endpointLimit = (JSON.parse(env.ENDPOINT_LIMITS ?? '{}') as Record<string, number>).pro ?? 120;
const globalLimit = Number(env.GLOBAL_RATE_LIMIT ?? 600);
const PLAN_WINDOWS = [MINUTE, planLimits.minute, 60 * MINUTE, planLimits.hour, 24 * 60 * MINUTE, planLimits.day];

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const API_KEY_SHAPE = /^sk_[A-Za-z0-9_-]{43}$/;
const VERIFIER_SHAPE = /^[A-Za-z0-9\-._~]{43,128}$/;
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ACCESS_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
const ID_TOKEN_TTL_SECONDS = 3600;

const sha256 = (value: string) => createHash('sha256').update(value).digest();
const secretsKey = /^[0-9a-fA-F]{64}$/.test(env.SECRETS_KEY ?? '')
  ? Buffer.from(env.SECRETS_KEY!, 'hex')
  : Buffer.from(env.SECRETS_KEY ?? '', 'base64');
const verifierKey = createHmac('sha256', secretsKey).update('sesame client secret verifier v1').digest();
const boxKey = sha256('floor secret box');
const redisPrefix = env.REDIS_PREFIX ?? 'floor';
const mailQueue = new Queue('mail', env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
  prefix: `{${redisPrefix}:bull}`,
  defaultJobOptions: { attempts: 5, removeOnComplete: true, removeOnFail: false },
});

type ScriptRedis = Redis & {
  slidingWindow(keyCount: number, ...keysThenArguments: (string | number)[]): Promise<number[][]>;
};
const instance = randomBytes(6).toString('base64url');
let sequence = 0;

/** One hit on one or more buckets (bucket, then its windows as length/limit pairs) with the throttler's script; true when all allowed. */
async function hit(...buckets: [string, number[]][]): Promise<boolean> {
  const now = Date.now();
  const reply = await (redis as ScriptRedis).slidingWindow(
    buckets.length,
    ...buckets.map(([bucket]) => throttlePrefix + bucket),
    now,
    '1',
    `${now}:${instance}:${++sequence}`,
    ...buckets.flatMap(([, windows]) => [windows.length / 2, ...windows]),
  );
  return reply.length === buckets.length && reply.every((entry) => entry[0] === 1);
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.error ?? body.code));
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
    'cache-control': 'no-store',
  });
  response.end(json);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 100 * 1024) reject(new HttpError(413, { error: 'invalid_request' }));
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

function bearer(request: IncomingMessage): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1];
}

async function userinfo(request: IncomingMessage): Promise<unknown> {
  const token = bearer(request);
  if (!token || !TOKEN_SHAPE.test(token)) throw new HttpError(401, { error: 'invalid_token' });
  const { rows } = await pool.query(
    `SELECT u.id AS user_id, u.email, u.email_verified, u.name, u.organization_id, u.updated_at
       FROM access_token t JOIN "user" u ON u.id = t.user_id
      WHERE t.hash = $1 AND t.revoked_at IS NULL AND t.expires_at > $2 AND NOT u.blocked`,
    [sha256(token), new Date()],
  );
  const row = rows[0] as
    { user_id: string; email: string; email_verified: boolean; name: string | null; organization_id: string; updated_at: Date } | undefined;
  if (!row) throw new HttpError(401, { error: 'invalid_token' });
  return {
    sub: row.user_id,
    email: row.email,
    email_verified: row.email_verified,
    name: row.name,
    organization_id: row.organization_id,
    updated_at: Math.floor(row.updated_at.getTime() / 1000),
  };
}

interface Client {
  applicationId: string;
  clientId: string;
  tenantId: string;
  secretHash: Buffer;
}

async function authenticateClient(request: IncomingMessage): Promise<Client> {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]*)\s*$/i.exec(request.headers.authorization ?? '');
  const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new HttpError(401, { error: 'invalid_client' });
  const clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
  const secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
  const { rows } = await pool.query(
    `SELECT a.id, a.type, a.organization_id, o.tenant_id, t.plan, a.client_secret_verifier
       FROM application a
       JOIN organization o ON o.id = a.organization_id
       JOIN tenant t ON t.id = o.tenant_id
      WHERE a.client_id = $1`,
    [clientId],
  );
  const row = rows[0] as { id: string; type: string; tenant_id: string; client_secret_verifier: Buffer | null } | undefined;
  const presented = createHmac('sha256', verifierKey).update(secret).digest();
  if (!row || row.type !== 'web' || !row.client_secret_verifier || !timingSafeEqual(presented, row.client_secret_verifier)) {
    throw new HttpError(401, { error: 'invalid_client' });
  }
  return { applicationId: row.id, clientId, tenantId: row.tenant_id, secretHash: sha256(secret) };
}

let signingKey: { kid: string; privateKey: CryptoKey };

async function verify(request: IncomingMessage): Promise<unknown> {
  if (!(await hit(['{ip:127.0.0.1}:global', [MINUTE, globalLimit]]))) throw new HttpError(429, { error: 'rate_limited' });
  const client = await authenticateClient(request);
  if (!(await hit([`{tenant:${client.tenantId}}:endpoint:TokensController.verify`, [MINUTE, endpointLimit]])))
    throw new HttpError(429, { error: 'rate_limited' });
  const form = new URLSearchParams(await readBody(request));
  const code = form.get('code') ?? '';
  const verifier = form.get('code_verifier') ?? '';
  const redirectUri = form.get('redirect_uri');
  const codeHash = sha256(code);
  const now = new Date();
  const accessToken = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000);

  const connection = await pool.connect();
  let claimed:
    | {
        user_id: string;
        redirect_uri: string;
        code_challenge: string | null;
        auth_time: Date;
        email: string;
        email_verified: boolean;
        organization_id: string;
        blocked: boolean;
      }
    | undefined;
  try {
    await connection.query('BEGIN');
    const { rows } = await connection.query(
      `WITH claimed AS (
         UPDATE authorization_code SET used_at = $3, access_token_hash = $4
          WHERE hash = $1 AND application_id = $2 AND used_at IS NULL AND expires_at > $3
          RETURNING user_id, redirect_uri, code_challenge, auth_time)
       SELECT c.*, u.email, u.email_verified, u.organization_id, u.blocked
         FROM claimed c JOIN "user" u ON u.id = c.user_id`,
      [codeHash, client.applicationId, now, sha256(accessToken)],
    );
    claimed = rows[0];
    const challenge = VERIFIER_SHAPE.test(verifier) ? createHash('sha256').update(verifier).digest('base64url') : null;
    const granted =
      claimed &&
      claimed.redirect_uri === redirectUri &&
      claimed.code_challenge !== null &&
      challenge === claimed.code_challenge &&
      !claimed.blocked;
    if (granted) {
      await connection.query(
        `INSERT INTO access_token (hash, application_id, user_id, organization_id, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [sha256(accessToken), client.applicationId, claimed!.user_id, claimed!.organization_id, expiresAt, now],
      );
    }
    await connection.query('COMMIT');
    if (!granted) throw new HttpError(400, { error: 'invalid_grant' });
  } catch (error) {
    if (!(error instanceof HttpError)) await connection.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    connection.release();
  }

  const issuedAt = Math.floor(now.getTime() / 1000);
  const jwt = await new SignJWT({
    email: claimed!.email,
    email_verified: claimed!.email_verified,
    org_id: claimed!.organization_id,
    auth_time: Math.floor(claimed!.auth_time.getTime() / 1000),
  })
    .setProtectedHeader({ alg: 'ES256', kid: signingKey.kid, typ: 'JWT' })
    .setIssuer(issuer)
    .setSubject(claimed!.user_id)
    .setAudience(client.clientId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ID_TOKEN_TTL_SECONDS)
    .sign(signingKey.privateKey);
  const idToken = await new CompactEncrypt(new TextEncoder().encode(jwt))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'JWT' })
    .encrypt(new Uint8Array(client.secretHash));
  return {
    access_token: accessToken,
    id_token: idToken,
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    expires_at: expiresAt.toISOString(),
    token_type: 'Bearer',
  };
}

interface Principal {
  tenantId: string;
  organizationId: string | null;
}

const keyCache = new Map<string, { principal: Principal | null; expiresAt: number }>();

/** The principal of the request's key when the cache holds it live, else undefined. */
function cachedPrincipal(request: IncomingMessage): Principal | undefined {
  const key = bearer(request);
  if (!key || !API_KEY_SHAPE.test(key)) return undefined;
  const entry = keyCache.get(sha256(key).toString('base64'));
  return entry && entry.expiresAt > Date.now() && entry.principal ? entry.principal : undefined;
}

async function apiKeyPrincipal(request: IncomingMessage): Promise<Principal> {
  const key = bearer(request);
  if (!key || !API_KEY_SHAPE.test(key)) throw new HttpError(401, { code: 'invalid_api_key' });
  const hash = sha256(key);
  const cacheKey = hash.toString('base64');
  const now = Date.now();
  let entry = keyCache.get(cacheKey);
  if (!entry || entry.expiresAt <= now) {
    const { rows } = await pool.query(
      `SELECT k.id, k.tenant_id, k.organization_id, t.plan
         FROM api_key k JOIN tenant t ON t.id = k.tenant_id
        WHERE k.hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    );
    const row = rows[0] as { tenant_id: string; organization_id: string | null } | undefined;
    entry = { principal: row ? { tenantId: row.tenant_id, organizationId: row.organization_id } : null, expiresAt: now + 5000 };
    keyCache.set(cacheKey, entry);
  }
  if (!entry.principal) throw new HttpError(401, { code: 'invalid_api_key' });
  return entry.principal;
}

/** As Sesame: a key the cache holds is counted against the global and the plan limit in one call; the organization must be in the key's reach. */
async function organizationCaller(request: IncomingMessage, id: string): Promise<Principal> {
  const plan = (tenantId: string): [string, number[]] => [`{tenant:${tenantId}}:plan`, PLAN_WINDOWS];
  const cached = cachedPrincipal(request);
  if (!(await hit(['{ip:127.0.0.1}:global', [MINUTE, globalLimit]], ...(cached ? [plan(cached.tenantId)] : []))))
    throw new HttpError(429, { code: 'rate_limited' });
  const principal = cached ?? (await apiKeyPrincipal(request));
  if (!cached && !(await hit(plan(principal.tenantId)))) throw new HttpError(429, { code: 'rate_limited' });
  if (!UUID_SHAPE.test(id) || (principal.organizationId !== null && principal.organizationId !== id))
    throw new HttpError(404, { code: 'not_found' });
  return principal;
}

async function organization(request: IncomingMessage, id: string): Promise<unknown> {
  const principal = await organizationCaller(request, id);
  const { rows } = await pool.query(
    `SELECT id, tenant_id, name, whitelist_domains, autologin, link_ttl_seconds, created_at, updated_at
       FROM organization WHERE tenant_id = $1 AND id = $2 LIMIT 1`,
    [principal.tenantId, id],
  );
  const row = rows[0] as
    | {
        id: string;
        tenant_id: string;
        name: string;
        whitelist_domains: string[];
        autologin: boolean;
        link_ttl_seconds: number;
        created_at: Date;
        updated_at: Date;
      }
    | undefined;
  if (!row) throw new HttpError(404, { code: 'not_found' });
  return {
    id: row.id,
    name: row.name,
    tenantId: row.tenant_id,
    whitelistDomains: row.whitelist_domains,
    autologin: row.autologin,
    linkTtlSeconds: row.link_ttl_seconds,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

interface ActivityRow {
  id: string;
  application_id: string;
  application_name: string;
  email: string;
  status: string;
  mail_suppressed: boolean;
  created_at: Date;
  expires_at: Date;
  mail_queued_at: Date | null;
  mail_sent_at: Date | null;
  mail_failed_at: Date | null;
  used_at: Date | null;
}

const PAGE_SIZE = 20;

/** The console's login activity: the newest page of the organization's attempts, the status as callers see it. */
async function loginActivity(request: IncomingMessage, id: string): Promise<unknown> {
  const principal = await organizationCaller(request, id);
  const found = await pool.query('SELECT id FROM organization WHERE tenant_id = $1 AND id = $2', [principal.tenantId, id]);
  if (found.rowCount === 0) throw new HttpError(404, { code: 'not_found' });
  const { rows } = await pool.query(
    `SELECT a.id, a.application_id, p.name AS application_name, a.email,
            CASE WHEN a.status = 'pending' AND a.expires_at <= $2 THEN 'expired' ELSE a.status::text END AS status,
            a.mail_suppressed, a.created_at, a.expires_at, a.mail_queued_at, a.mail_sent_at, a.mail_failed_at, a.used_at
       FROM login_attempt a JOIN application p ON p.id = a.application_id
      WHERE a.organization_id = $1 ORDER BY a.created_at DESC, a.id DESC LIMIT $3`,
    [id, new Date(), PAGE_SIZE + 1],
  );
  const items = (rows as ActivityRow[]).slice(0, PAGE_SIZE);
  const last = items[items.length - 1];
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    data: items.map((row) => ({
      id: row.id,
      applicationId: row.application_id,
      applicationName: row.application_name,
      email: row.email,
      status: row.status,
      mail: row.mail_suppressed
        ? 'suppressed'
        : row.mail_sent_at
          ? 'sent'
          : row.mail_failed_at
            ? 'failed'
            : row.mail_queued_at
              ? 'queued'
              : 'not_queued',
      createdAt: row.created_at.toISOString(),
      expiresAt: row.expires_at.toISOString(),
      mailQueuedAt: iso(row.mail_queued_at),
      mailSentAt: iso(row.mail_sent_at),
      mailFailedAt: iso(row.mail_failed_at),
      completedAt: iso(row.used_at),
    })),
    nextCursor: rows.length > PAGE_SIZE && last ? Buffer.from(`${last.created_at.toISOString()}|${last.id}`).toString('base64url') : null,
  };
}

interface LoginClient {
  applicationId: string;
  organizationId: string;
  tenantId: string;
  verifier: Buffer;
}

const clientCache = new Map<string, { client: LoginClient | null; expiresAt: number }>();

function basicCredentials(request: IncomingMessage): { clientId: string; secret: string } {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]*)\s*$/i.exec(request.headers.authorization ?? '');
  const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new HttpError(401, { error: 'invalid_client' });
  return {
    clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
    secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
  };
}

async function loginClient(clientId: string): Promise<LoginClient | null> {
  const now = Date.now();
  const cached = clientCache.get(clientId);
  if (cached && cached.expiresAt > now) return cached.client;
  const { rows } = await pool.query(
    `SELECT a.id, a.type, a.organization_id, o.tenant_id, a.client_secret_verifier
       FROM application a JOIN organization o ON o.id = a.organization_id JOIN tenant t ON t.id = o.tenant_id
      WHERE a.client_id = $1`,
    [clientId],
  );
  const row = rows[0] as
    { id: string; type: string; organization_id: string; tenant_id: string; client_secret_verifier: Buffer | null } | undefined;
  const client =
    row && row.type === 'web' && row.client_secret_verifier
      ? { applicationId: row.id, organizationId: row.organization_id, tenantId: row.tenant_id, verifier: row.client_secret_verifier }
      : null;
  clientCache.set(clientId, { client, expiresAt: now + 5000 });
  return client;
}

interface LoginContext {
  whitelist_domains: string[];
  link_ttl_seconds: number;
}

const contextCache = new Map<string, { context: LoginContext | undefined; expiresAt: number }>();

/** The application's whitelist and link lifetime, cached for 5 s like Sesame's ClientContexts. */
async function loginContext(applicationId: string): Promise<LoginContext | undefined> {
  const now = Date.now();
  const cached = contextCache.get(applicationId);
  if (cached && cached.expiresAt > now) return cached.context;
  const { rows } = await pool.query(
    `SELECT a.callback_urls, o.whitelist_domains, o.link_ttl_seconds
       FROM application a JOIN organization o ON o.id = a.organization_id WHERE a.id = $1`,
    [applicationId],
  );
  const context = rows[0] as LoginContext | undefined;
  contextCache.set(applicationId, { context, expiresAt: now + 5000 });
  return context;
}

/** mail_queued_at of concurrent requests' attempts in one statement, as Sesame writes it. */
const queuedMarks = new LookupBatcher<string, true>(
  async (ids) => {
    await pool.query('UPDATE login_attempt SET mail_queued_at = $2 WHERE id = ANY($1::uuid[]) AND mail_queued_at IS NULL', [
      ids,
      new Date(),
    ]);
    return new Map(ids.map((id) => [id, true as const]));
  },
  { maxInFlight: 2, maxBatch: 500 },
);

const EMAIL_SHAPE = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
const WORDS = ['amber', 'brisk', 'cedar', 'dune', 'ember', 'fjord', 'grove', 'haven', 'iris', 'juniper', 'kestrel', 'lumen'];

async function authenticateDirect(request: IncomingMessage): Promise<unknown> {
  const { clientId, secret } = basicCredentials(request);
  const endpoint = (tenantId: string): [string, number[]] => [
    `{tenant:${tenantId}}:endpoint:DirectAuthController.authenticate`,
    [MINUTE, endpointLimit],
  ];
  const presented = createHmac('sha256', verifierKey).update(secret).digest();
  const cachedEntry = clientCache.get(clientId);
  const cached =
    cachedEntry && cachedEntry.expiresAt > Date.now() && cachedEntry.client && timingSafeEqual(presented, cachedEntry.client.verifier)
      ? cachedEntry.client
      : null;
  if (!(await hit(['{ip:127.0.0.1}:global', [MINUTE, globalLimit]], ...(cached ? [endpoint(cached.tenantId)] : []))))
    throw new HttpError(429, { error: 'rate_limited' });
  const client = cached ?? (await loginClient(clientId));
  if (!client || !timingSafeEqual(presented, client.verifier)) throw new HttpError(401, { error: 'invalid_client' });
  if (!cached && !(await hit(endpoint(client.tenantId)))) throw new HttpError(429, { error: 'rate_limited' });

  const input = JSON.parse(await readBody(request)) as { email?: unknown; redirect_uri?: unknown; state?: unknown };
  if (typeof input.email !== 'string' || typeof input.redirect_uri !== 'string' || typeof input.state !== 'string' || !input.state)
    throw new HttpError(400, { error: 'invalid_request' });
  const email = input.email.trim().toLowerCase();
  if (!EMAIL_SHAPE.test(email)) throw new HttpError(400, { error: 'invalid_request' });
  const row = await loginContext(client.applicationId);
  if (!row || !row.whitelist_domains.includes(new URL(input.redirect_uri).origin)) throw new HttpError(400, { error: 'invalid_request' });

  const now = new Date();
  const token = randomBytes(32).toString('base64url');
  const tokenHash = sha256(token);
  const sentence = Array.from({ length: 4 }, () => WORDS[randomInt(WORDS.length)]).join(' ') + ` ${randomInt(1e9)}`;
  const connection = await pool.connect();
  let attemptId: string;
  let allowedDate: Date;
  try {
    await connection.query('BEGIN');
    // Most addresses have no throttle row (a login clears it): one statement makes it, holding the first attempt.
    const firstAllowed = new Date(now.getTime() + 15_000);
    const created = await connection.query(
      `INSERT INTO email_throttle (organization_id, email, attempts, allowed_date, last_attempt_at) VALUES ($1, $2, 1, $3, $4)
       ON CONFLICT (organization_id, email) DO NOTHING RETURNING 1`,
      [client.organizationId, email, firstAllowed, now],
    );
    allowedDate = firstAllowed;
    if (created.rowCount === 0) {
      const locked = await connection.query(
        `INSERT INTO email_throttle (organization_id, email, attempts, allowed_date, last_attempt_at) VALUES ($1, $2, 0, $3, $3)
         ON CONFLICT (organization_id, email) DO UPDATE SET attempts = email_throttle.attempts
         RETURNING attempts, allowed_date, last_attempt_at`,
        [client.organizationId, email, now],
      );
      const previous = locked.rows[0] as { attempts: number; allowed_date: Date };
      if (previous.attempts > 0 && previous.allowed_date > now) throw new HttpError(429, { error: 'too_early' });
      const attempts = previous.attempts + 1;
      allowedDate = new Date(now.getTime() + Math.min(15 * 2 ** (attempts - 1), 900) * 1000);
      await connection.query(
        `INSERT INTO email_throttle (organization_id, email, attempts, allowed_date, last_attempt_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (organization_id, email) DO UPDATE SET attempts = $3, allowed_date = $4, last_attempt_at = $5`,
        [client.organizationId, email, attempts, allowedDate, now],
      );
    }
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', boxKey, iv, { authTagLength: 16 });
    cipher.setAAD(Buffer.from(tokenHash.toString('base64url')));
    const sealed = ['v1', iv, Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]), cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
    const inserted = await connection.query(
      `INSERT INTO login_attempt (organization_id, application_id, email, token_hash, link_token_encrypted, sentence, state, redirect_uri,
                                  mail_suppressed, expires_at, created_at, flow, approval_verifier)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, EXISTS (SELECT 1 FROM "user" WHERE organization_id = $1 AND email = $3::varchar AND blocked),
               $9, $10, 'direct', $11) ON CONFLICT DO NOTHING RETURNING id`,
      [
        client.organizationId,
        client.applicationId,
        email,
        tokenHash,
        sealed,
        sentence,
        input.state,
        input.redirect_uri,
        new Date(now.getTime() + row.link_ttl_seconds * 1000),
        now,
        sha256(String(randomInt(100))),
      ],
    );
    attemptId = (inserted.rows[0] as { id: string }).id;
    await connection.query('COMMIT');
  } catch (error) {
    await connection.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    connection.release();
  }
  await mailQueue.add('login-link', { version: 1, loginAttemptId: attemptId, requestId: null }, { jobId: attemptId });
  await queuedMarks.load(attemptId);
  return { loginAttemptId: attemptId, token: tokenHash.toString('hex'), sentence, allowedDate: allowedDate.toISOString() };
}

const ORGANIZATION_PATH = '/api/v2/organization/';
const LOGIN_ACTIVITY = /^\/api\/v2\/organization\/([^/]+)\/login_attempt$/;

async function route(request: IncomingMessage): Promise<unknown> {
  const path = (request.url ?? '/').split('?')[0];
  if (request.method === 'GET' && path === '/api/v1/userinfo') return userinfo(request);
  if (request.method === 'POST' && path === '/api/v1/verify') return verify(request);
  if (request.method === 'POST' && path === '/api/v1/authenticate_direct') return authenticateDirect(request);
  const activity = request.method === 'GET' ? LOGIN_ACTIVITY.exec(path) : null;
  if (activity) return loginActivity(request, activity[1]);
  if (request.method === 'GET' && path.startsWith(ORGANIZATION_PATH)) return organization(request, path.slice(ORGANIZATION_PATH.length));
  if (request.method === 'GET' && path === '/api/health') return { status: 'ok' };
  throw new HttpError(404, { code: 'not_found' });
}

async function main(): Promise<void> {
  const { privateKey } = await generateKeyPair('ES256');
  signingKey = { kid: randomBytes(8).toString('hex'), privateKey };
  // Without an offline queue, a request before the connection is ready would fail (as Sesame waits in RedisThrottlerStorage).
  if (redis.status !== 'ready') await once(redis, 'ready');
  const server = createServer((request, response) => {
    route(request).then(
      (body) => send(response, 200, body),
      (error: unknown) => {
        if (error instanceof HttpError) return send(response, error.status, error.body);
        process.stderr.write(`floor: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
        send(response, 500, { error: 'server_error' });
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  server.listen(port, env.HOST ?? '127.0.0.1', () => process.stdout.write(`floor listening on ${port}\n`));
  const stop = () => {
    server.close();
    server.closeAllConnections();
    void Promise.allSettled([pool.end(), redis.quit(), mailQueue.close()]).then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
