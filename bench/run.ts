/**
 * Benchmarks: `npm run bench -- <scenario>` builds the project and runs one scenario.
 * Every scenario starts its servers as separate processes, drives them with autocannon (another
 * process), runs for a bounded time and stops everything it started.
 */
import { runThrottlerBench } from './throttler';

const SCENARIOS: Record<string, { describe: string; run: () => Promise<void> }> = {
  throttler: {
    describe: 'latency added by the rate limiter on a real management endpoint, limiter on vs off',
    run: runThrottlerBench,
  },
};

async function main(): Promise<void> {
  const name = process.argv[2];
  const scenario = name ? SCENARIOS[name] : undefined;
  if (!scenario) {
    process.stderr.write(
      `Usage: npm run bench -- <scenario>\n\nScenarios:\n${Object.entries(SCENARIOS)
        .map(([key, value]) => `  ${key.padEnd(12)} ${value.describe}`)
        .join('\n')}\n`,
    );
    process.exit(name ? 1 : 0);
  }
  await scenario.run();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
