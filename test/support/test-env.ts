import { randomBytes } from 'node:crypto';

/** Values every test process shares; the global setup adds DATABASE_URL and REDIS_PREFIX for the run. */
export const TEST_PLATFORM_API_KEY = 'test-platform-key-0123456789abcdef0123456789';
export const TEST_SECRETS_KEY = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';

export const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export function runId(): string {
  return `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

export function databaseUrlFor(name: string): string {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
