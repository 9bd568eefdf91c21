/**
 * The data of the hot-path benchmarks: a throwaway database (created, migrated, dropped), a pro
 * tenant with an organization and a web application made through the management API as an
 * operator would, and what the load needs inserted directly in the formats the service uses:
 * users with access tokens (userinfo), authorization codes with PKCE (verify), all stored as
 * SHA-256 hashes of random 256-bit secrets, as apps/auth-api does.
 */
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { runMigrations } from '@sesame/entities';
import Redis from 'ioredis';
import { Client, Pool } from 'pg';
import { log } from './settings';

export const REDIRECT_URI = 'https://bench.example/callback';
export const WHITELIST = 'https://bench.example';

export interface Seed {
  tenantId: string;
  organizationId: string;
  /** A tenant API key (Bearer) for the management API. */
  apiKey: string;
  applicationId: string;
  clientId: string;
  clientSecret: string;
}

export function withDatabase(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin<T>(adminUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createDatabase(adminUrl: string, database: string): Promise<string> {
  await admin(adminUrl, (client) => client.query(`CREATE DATABASE "${database}"`));
  const url = withDatabase(adminUrl, database);
  await runMigrations(url);
  return url;
}

/** A new database with `template`'s schema and rows (no session may be connected to `template`). */
export async function copyDatabase(adminUrl: string, template: string, database: string): Promise<string> {
  await admin(adminUrl, (client) => client.query(`CREATE DATABASE "${database}" TEMPLATE "${template}"`));
  return withDatabase(adminUrl, database);
}

export async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  await admin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
}

/** Deletes every key under a prefix (SCAN, not KEYS: Redis is shared). */
export async function clearRedis(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url);
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [nextCursor, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = nextCursor;
      if (keys.length) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
  return deleted;
}

/** Tenant, organization and web application, through a running management API. */
export async function seedThroughApi(managementUrl: string, platformKey: string): Promise<Seed> {
  const tenant = await post(managementUrl, '/api/v2/tenant', platformKey, { name: 'Bench tenant', plan: 'pro' });
  const apiKey = (tenant.apiKey as { key: string }).key;
  const tenantId = (tenant.tenant as { id: string }).id;
  const organization = await post(managementUrl, '/api/v2/organization', apiKey, {
    name: 'Bench organization',
    whitelistDomains: [WHITELIST],
  });
  const organizationId = organization.id as string;
  const application = await post(managementUrl, `/api/v2/organization/${organizationId}/application`, apiKey, {
    name: 'Bench web app',
    type: 'web',
  });
  return {
    tenantId,
    organizationId,
    apiKey,
    applicationId: application.id as string,
    clientId: application.clientId as string,
    clientSecret: application.clientSecret as string,
  };
}

async function post(url: string, path: string, key: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url + path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest();
const secret = () => randomBytes(32).toString('base64url');

/** Direct inserts into the benchmark's database. */
export class BenchData {
  private pool: Pool;

  constructor(
    private readonly databaseUrl: string,
    private readonly seed: Seed,
    private readonly userIds: string[] = [],
  ) {
    this.pool = new Pool({ connectionString: databaseUrl, max: 2 });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** Closes the pool's connections; the next query opens new ones. */
  async disconnect(): Promise<void> {
    const closing = this.pool;
    this.pool = new Pool({ connectionString: this.databaseUrl, max: 2 });
    await closing.end();
  }

  /** The same helper for a copy of this database (the users made so far are there too). */
  copyTo(databaseUrl: string): BenchData {
    return new BenchData(databaseUrl, this.seed, [...this.userIds]);
  }

  /** Writes every dirty buffer out (the whole cluster's), so that what follows starts a checkpoint cycle. */
  async checkpoint(): Promise<void> {
    await this.pool.query('CHECKPOINT');
  }

  async query<T extends object>(sql: string, parameters: unknown[] = []): Promise<T[]> {
    return (await this.pool.query(sql, parameters)).rows as T[];
  }

  /** `count` users of the organization (email verified), created once. */
  async users(count: number): Promise<string[]> {
    if (this.userIds.length >= count) return this.userIds.slice(0, count);
    const from = this.userIds.length;
    const emails = Array.from({ length: count - from }, (_, i) => `bench-user-${from + i}@bench.example`);
    const { rows } = await this.pool.query<{ id: string }>(
      `INSERT INTO "user" (organization_id, email, name, email_verified)
       SELECT $1, email, 'Bench User', true FROM unnest($2::varchar[]) WITH ORDINALITY AS e(email, n) ORDER BY n
       RETURNING id`,
      [this.seed.organizationId, emails],
    );
    this.userIds.push(...rows.map((row) => row.id));
    return this.userIds.slice(0, count);
  }

  /** One valid access token per user (30 days); returns the tokens. */
  async accessTokens(userIds: string[]): Promise<string[]> {
    const tokens = userIds.map(() => secret());
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 30 * 24 * 3600 * 1000);
    await this.pool.query(
      `INSERT INTO access_token (hash, application_id, user_id, organization_id, expires_at, created_at)
       SELECT hash, $1, user_id, $2, $3, $4 FROM unnest($5::bytea[], $6::uuid[]) AS t(hash, user_id)`,
      [this.seed.applicationId, this.seed.organizationId, expiresAt, now, tokens.map(sha256), userIds],
    );
    return tokens;
  }

  /**
   * `count` authorization codes with an S256 challenge, as AuthorizationCodeService issues them
   * (hash = SHA-256 of the code), valid for an hour rather than 5 minutes so that they outlive
   * the run. Writes one form body per line to `file`: the request each code is redeemed with.
   */
  async codes(count: number, userIds: string[], file: string): Promise<void> {
    const lines: string[] = [];
    const batch = 5000;
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 3600 * 1000);
    for (let start = 0; start < count; start += batch) {
      const size = Math.min(batch, count - start);
      const hashes: Buffer[] = [];
      const users: string[] = [];
      const challenges: string[] = [];
      for (let i = 0; i < size; i++) {
        const code = secret();
        const verifier = secret();
        hashes.push(sha256(code));
        users.push(userIds[(start + i) % userIds.length]);
        challenges.push(createHash('sha256').update(verifier).digest('base64url'));
        lines.push(formBody(code, verifier));
      }
      await this.pool.query(
        `INSERT INTO authorization_code (hash, application_id, user_id, redirect_uri, code_challenge, auth_time, expires_at, created_at)
         SELECT hash, $1, user_id, $2, challenge, $3, $4, $3 FROM unnest($5::bytea[], $6::uuid[], $7::varchar[]) AS c(hash, user_id, challenge)`,
        [this.seed.applicationId, REDIRECT_URI, now, expiresAt, hashes, users, challenges],
      );
    }
    writeFileSync(file, `${lines.join('\n')}\n`);
  }
}

/** The form a client posts to a token endpoint to redeem a code (client credentials go in the Basic header). */
export function formBody(code: string, verifier: string): string {
  return new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier }).toString();
}

/** `Authorization: Basic …` with client_id and client_secret form-urlencoded first (RFC 6749 §2.3.1). */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

export function logSeed(seed: Seed): void {
  log(`seeded: tenant ${seed.tenantId} (pro), organization ${seed.organizationId}, web application ${seed.clientId}`);
}
