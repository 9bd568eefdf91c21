import { parseEnvironment, SesameConfig } from '@sesame/common';

/** The test run's configuration, with per-test overrides (as environment variables, validated like in production). */
export function testConfig(overrides: Record<string, string> = {}): SesameConfig {
  return parseEnvironment({ ...process.env, ...overrides });
}
