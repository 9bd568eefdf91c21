import { Client } from 'pg';
import { runMigrations } from '@sesame/entities';
import { ADMIN_DATABASE_URL, databaseUrlFor, runId, TEST_PLATFORM_API_KEY, TEST_SECRETS_KEY } from './test-env';
import { quietDefaultLogger } from './test-logging';

/**
 * Each run gets its own database (migrated from scratch, as production is) and its own Redis
 * key prefix, so runs never see each other's data. Workers inherit these variables.
 */
export default async function globalSetup(): Promise<void> {
  quietDefaultLogger();
  const id = runId();
  const database = `sesame_test_${id}`;
  const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${database}"`);
  } finally {
    await admin.end();
  }
  const url = databaseUrlFor(database);
  await runMigrations(url);

  Object.assign(process.env, {
    NODE_ENV: 'test',
    DATABASE_URL: url,
    TEST_DATABASE_NAME: database,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `sesame-test-${id}`,
    SECRETS_KEY: TEST_SECRETS_KEY,
    PLATFORM_API_KEY: TEST_PLATFORM_API_KEY,
    LOG_LEVEL: 'silent',
    // Generous rate limits for the run, so suites that make many requests are not throttled;
    // test/throttler sets its own through startManagementApi({ env }).
    PLAN_LIMITS: JSON.stringify(
      Object.fromEntries(['free', 'basic', 'pro', 'enterprise'].map((plan) => [plan, { minute: 100000, hour: 100000, day: 100000 }])),
    ),
    GLOBAL_RATE_LIMIT: '1000000',
    ENDPOINT_LIMITS: JSON.stringify({ free: 100000, basic: 100000, pro: 100000, enterprise: 100000 }),
    PAGE_RATE_LIMIT: '100000',
    // Suites check revocation, blocking and rotation at once; test/auth/caches.e2e-spec.ts covers the caches' windows.
    ACCESS_TOKEN_CACHE_SECONDS: '0',
    // Every file shares the run's database, many with a clock far from real time: the maintenance
    // job runs only where a test turns it on (test/ops/maintenance.e2e-spec.ts, on a database of its own).
    MAINTENANCE_INTERVAL_SECONDS: '0',
    // Likewise the webhook dispatcher: a worker of another file would claim a file's events from the
    // shared database and queue them on its own Redis prefix. test/webhooks turns it on for its worker.
    WEBHOOK_DISPATCH_INTERVAL_MS: '0',
    CLIENT_CACHE_SECONDS: '0',
    // Apps started as processes stop at once on SIGTERM; test/ops/shutdown.e2e-spec.ts sets a drain where it tests one.
    SHUTDOWN_DRAIN_SECONDS: '0',
  });
}
