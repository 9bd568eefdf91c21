import { randomBytes } from 'node:crypto';
import { parseEnvironment, SesameConfig } from '@sesame/common';

/**
 * Redis key prefix of this test file: Jest gives every test file a fresh module registry, so
 * each file's apps have their own queue and counters (a worker started by one file never takes
 * another file's mail jobs). The run-wide prefix stays the start, for the global teardown.
 */
export const FILE_REDIS_PREFIX = `${process.env.REDIS_PREFIX ?? 'sesame-test'}-${randomBytes(3).toString('hex')}`;

/** The test run's configuration, with per-test overrides (as environment variables, validated like in production). */
export function testConfig(overrides: Record<string, string> = {}): SesameConfig {
  return parseEnvironment({ ...process.env, REDIS_PREFIX: FILE_REDIS_PREFIX, ...overrides });
}
