/**
 * The data of `npm run bench -- scale`: fills the benchmark's database to production sizes with
 * server-side multi-row inserts (INSERT … SELECT over generate_series, no round trip per row), and
 * reads back the query plans and table sizes that docs/benchmarks.md records.
 */
import { Pool } from 'pg';
import { Seed } from './fixture';
import { log } from './settings';

/** What the fill adds on top of the near-empty database. */
export const SCALE = {
  users: 100_000,
  organizations: 10_000,
  liveTokens: 1_000_000,
  loginAttempts: 1_000_000,
  /** Past their retention, for the maintenance job: expired tokens, unused expired codes, old login attempts. */
  expired: { tokens: 600_000, codes: 200_000, attempts: 200_000 },
};

export class ScaleData {
  private readonly pool: Pool;

  constructor(
    databaseUrl: string,
    private readonly seed: Seed,
  ) {
    this.pool = new Pool({ connectionString: databaseUrl, max: 2 });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async step(what: string, sql: string, parameters: unknown[] = []): Promise<void> {
    const started = Date.now();
    const result = await this.pool.query(sql, parameters);
    log(`scale fill: ${what}: ${result.rowCount ?? 0} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  /** A page and more of recent login attempts, so that the near-empty login-activity list returns as many as at 1 M. */
  async recentAttempts(count: number): Promise<void> {
    await this.step(
      'recent login attempts',
      `INSERT INTO login_attempt (organization_id, application_id, email, token_hash, sentence, state, redirect_uri, status, expires_at, used_at,
                                  mail_queued_at, mail_sent_at, created_at)
       SELECT $1, $2, 'bench-user-' || g || '@bench.example', sha256(('recent-attempt-' || g)::bytea), 'recent sentence ' || g, 'state',
              'https://bench.example/callback', 'completed', now() + interval '10 minutes', now(), now(), now(), now() - g * interval '1 second'
         FROM generate_series(1, $3) g`,
      [this.seed.organizationId, this.seed.applicationId, count],
    );
    // Statistics of the table as it is now (earlier scenarios of the run may have filled it), not as autovacuum last saw it.
    await this.step('ANALYZE login_attempt', 'ANALYZE login_attempt');
  }

  /** Organizations, users, live tokens and login attempts (the hot paths' tables at 1 M rows). */
  async fill(): Promise<void> {
    const { tenantId, organizationId, applicationId } = this.seed;
    await this.step(
      'organizations',
      `INSERT INTO organization (tenant_id, name) SELECT $1, 'Scale organization ' || g FROM generate_series(1, $2) g`,
      [tenantId, SCALE.organizations - 1],
    );
    await this.step(
      'users (one organization, up to 100 k with those of the userinfo scenario)',
      `INSERT INTO "user" (organization_id, email, name, email_verified)
       SELECT $1, 'scale-user-' || g || '@bench.example', 'Scale User', true FROM generate_series(1, $2 - (SELECT count(*) FROM "user" WHERE organization_id = $1)) g`,
      [organizationId, SCALE.users],
    );
    await this.step(
      'live access tokens',
      `WITH u AS (SELECT id, (row_number() OVER ()) - 1 AS n FROM "user" WHERE organization_id = $2)
       INSERT INTO access_token (hash, application_id, user_id, organization_id, expires_at, created_at)
       SELECT sha256(('scale-live-token-' || g)::bytea), $1, u.id, $2,
              now() + interval '30 days' - (g % 2592000) * interval '1 second', now() - (g % 2592000) * interval '1 second'
         FROM generate_series(0, $3 - (SELECT count(*) FROM access_token) - 1) g JOIN u ON u.n = g % $4`,
      [applicationId, organizationId, SCALE.liveTokens, SCALE.users],
    );
    // Retention keeps a used code while its token lives (the replay rule), so each live token has one.
    await this.step(
      'used codes of the live tokens',
      `INSERT INTO authorization_code (hash, application_id, user_id, redirect_uri, auth_time, expires_at, used_at, access_token_hash, created_at)
       SELECT sha256(('scale-live-code-' || g)::bytea), t.application_id, t.user_id, 'https://bench.example/callback', t.created_at,
              t.created_at + interval '10 minutes', t.created_at, t.hash, t.created_at
         FROM generate_series(0, $1 - 1) g JOIN access_token t ON t.hash = sha256(('scale-live-token-' || g)::bytea)`,
      [SCALE.liveTokens],
    );
    await this.step(
      'login attempts (last 29 days, used)',
      `INSERT INTO login_attempt (organization_id, application_id, email, token_hash, sentence, state, redirect_uri, status, expires_at, used_at,
                                  mail_queued_at, mail_sent_at, created_at)
       SELECT $1, $2, 'bench-user-' || (g % $4) || '@bench.example', sha256(('scale-attempt-' || g)::bytea), 'scale sentence ' || g, 'state',
              'https://bench.example/callback', 'completed', t + interval '10 minutes', t + interval '1 minute', t, t, t
         FROM generate_series(1, $3) g, LATERAL (SELECT now() - (g % 2505600) * interval '1 second' AS t) time`,
      [organizationId, applicationId, SCALE.loginAttempts, SCALE.users],
    );
    await this.step(
      'e-mail throttle rows',
      `INSERT INTO email_throttle (organization_id, email, attempts, allowed_date, last_attempt_at)
       SELECT $1, 'bench-user-' || g || '@bench.example', 1, now(), now() FROM generate_series(0, $2 - 1) g ON CONFLICT DO NOTHING`,
      [organizationId, SCALE.users],
    );
    await this.fillExpired();
  }

  /** One million rows past their retention (again after the maintenance job removed them). */
  async fillExpired(): Promise<void> {
    const { organizationId, applicationId } = this.seed;
    const round = Date.now().toString(36);
    await this.step(
      'expired access tokens (8–38 days ago)',
      `WITH u AS (SELECT id, (row_number() OVER ()) - 1 AS n FROM "user" WHERE organization_id = $2 LIMIT 1000)
       INSERT INTO access_token (hash, application_id, user_id, organization_id, expires_at, created_at)
       SELECT sha256(($4 || '-expired-token-' || g)::bytea), $1, u.id, $2, now() - interval '8 days' - (g % 2592000) * interval '1 second', now() - interval '40 days'
         FROM generate_series(1, $3) g JOIN u ON u.n = g % 1000`,
      [applicationId, organizationId, SCALE.expired.tokens, round],
    );
    await this.step(
      'expired unused codes',
      `WITH u AS (SELECT id, (row_number() OVER ()) - 1 AS n FROM "user" WHERE organization_id = $2 LIMIT 1000)
       INSERT INTO authorization_code (hash, application_id, user_id, redirect_uri, auth_time, expires_at, created_at)
       SELECT sha256(($4 || '-expired-code-' || g)::bytea), $1, u.id, 'https://bench.example/callback', now() - interval '3 days', now() - interval '2 days', now() - interval '3 days'
         FROM generate_series(1, $3) g JOIN u ON u.n = g % 1000`,
      [applicationId, organizationId, SCALE.expired.codes, round],
    );
    await this.step(
      'login attempts past retention (31–60 days ago)',
      `INSERT INTO login_attempt (organization_id, application_id, email, token_hash, sentence, state, redirect_uri, status, expires_at, created_at)
       SELECT $1, $2, 'bench-user-' || (g % 1000) || '@bench.example', sha256(($4 || '-old-attempt-' || g)::bytea), $4 || ' old sentence ' || g, 'state',
              'https://bench.example/callback', 'expired', t + interval '10 minutes', t
         FROM generate_series(1, $3) g, LATERAL (SELECT now() - interval '31 days' - (g % 2505600) * interval '1 second' AS t) time`,
      [organizationId, applicationId, SCALE.expired.attempts, round],
    );
    await this.step('VACUUM ANALYZE', 'VACUUM ANALYZE');
  }

  /** Rows and on-disk size (heap, TOAST and indexes) of the tables a login writes. */
  async sizes(): Promise<TableSize[]> {
    const { rows } = await this.pool.query<{ table: string; rows: string; bytes: string; index_bytes: string }>(
      `SELECT c.relname AS table, c.reltuples::bigint AS rows, pg_total_relation_size(c.oid) AS bytes, pg_indexes_size(c.oid) AS index_bytes
         FROM pg_class c WHERE c.relname IN ('access_token', 'authorization_code', 'login_attempt', 'email_throttle', 'user', 'organization', 'audit_event')
        ORDER BY c.relname`,
    );
    return rows.map((row) => ({ table: row.table, rows: Number(row.rows), bytes: Number(row.bytes), indexBytes: Number(row.index_bytes) }));
  }

  async databaseBytes(): Promise<number> {
    const { rows } = await this.pool.query<{ bytes: string }>('SELECT pg_database_size(current_database()) AS bytes');
    return Number(rows[0].bytes);
  }

  /** EXPLAIN (ANALYZE, BUFFERS) of each hot query; statements that write run inside a transaction that is rolled back. */
  async plans(): Promise<{ name: string; plan: string }[]> {
    const { organizationId, applicationId } = this.seed;
    const client = await this.pool.connect();
    const plans: { name: string; plan: string }[] = [];
    try {
      for (const [name, sql, parameters] of hotQueries(organizationId, applicationId)) {
        await client.query('BEGIN');
        try {
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, parameters);
          plans.push({ name, plan: rows.map((row) => row['QUERY PLAN']).join('\n') });
        } finally {
          await client.query('ROLLBACK');
        }
      }
    } finally {
      client.release();
    }
    return plans;
  }
}

export interface TableSize {
  table: string;
  rows: number;
  bytes: number;
  indexBytes: number;
}

/** The statements of the hot paths and of the background jobs, as the services send them (literal values for a token, a user and a page). */
function hotQueries(organizationId: string, applicationId: string): [string, string, unknown[]][] {
  const token = "sha256('scale-live-token-4242'::bytea)";
  return [
    [
      'userinfo (token → user)',
      `SELECT t.hash, u.id AS user_id, u.email, u.email_verified, u.name, u.organization_id, u.updated_at, t.expires_at,
              t.revoked_at IS NOT NULL AS revoked, u.blocked
         FROM access_token t JOIN "user" u ON u.id = t.user_id WHERE t.hash = ANY(ARRAY[${token}])`,
      [],
    ],
    [
      'verify: replay revokes the token of a code',
      `UPDATE access_token SET revoked_at = now()
        WHERE hash = (SELECT access_token_hash FROM authorization_code WHERE hash = sha256('scale-live-code-4242'::bytea) AND application_id = $1) AND revoked_at IS NULL
       RETURNING hash`,
      [applicationId],
    ],
    [
      'authenticate_direct: user by address',
      `SELECT blocked FROM "user" WHERE organization_id = $1 AND email = 'bench-user-4242@bench.example'`,
      [organizationId],
    ],
    [
      'users list filtered by e-mail',
      `SELECT * FROM "user" WHERE organization_id = $1 AND email = 'bench-user-4242@bench.example' ORDER BY created_at ASC, id ASC LIMIT 51`,
      [organizationId],
    ],
    [
      'login activity, first page',
      `SELECT a.*, app.name FROM login_attempt a JOIN application app ON app.id = a.application_id
        WHERE a.organization_id = $1 ORDER BY a.created_at DESC, a.id DESC LIMIT 51`,
      [organizationId],
    ],
    [
      'login activity filtered by e-mail',
      `SELECT a.*, app.name FROM login_attempt a JOIN application app ON app.id = a.application_id
        WHERE a.organization_id = $1 AND a.email = 'bench-user-4242@bench.example' ORDER BY a.created_at DESC, a.id DESC LIMIT 51`,
      [organizationId],
    ],
    [
      'mail sweeper: expire pending attempts',
      `UPDATE login_attempt SET status = 'expired', link_token_encrypted = NULL WHERE status = 'pending' AND expires_at <= now()`,
      [],
    ],
    [
      'mail sweeper: unsent attempts',
      `SELECT id, request_id FROM login_attempt WHERE status = 'pending' AND mail_sent_at IS NULL AND NOT mail_suppressed AND expires_at > now() AND created_at < now() - interval '30 seconds'
        ORDER BY created_at LIMIT 500`,
      [],
    ],
    [
      'maintenance: one batch of expired tokens',
      `DELETE FROM access_token WHERE hash IN (SELECT hash FROM access_token WHERE expires_at < now() - interval '7 days' LIMIT 1000 FOR UPDATE SKIP LOCKED)`,
      [],
    ],
    [
      'maintenance: one batch of old login attempts',
      `DELETE FROM login_attempt WHERE id IN (SELECT id FROM login_attempt WHERE created_at < now() - interval '30 days' LIMIT 1000 FOR UPDATE SKIP LOCKED)`,
      [],
    ],
  ];
}
