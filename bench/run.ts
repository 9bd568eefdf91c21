/**
 * Benchmarks: `npm run bench` builds the project and runs every hot-path scenario (userinfo,
 * userinfo-cached, verify, organization, mail) in one run, printing one table; `npm run bench -- <scenario>`
 * runs one (or several, comma-separated). Every scenario starts its servers as separate
 * processes, drives them from another process, runs for a bounded time and stops everything it
 * started. See docs/benchmarks.md.
 */
import { runInstancesBench } from './instances';
import { runProfile } from './profile';
import { runScaleBench } from './scale';
import { ALL_SCENARIOS, runSuite, SuiteScenario } from './suite';
import { runThrottlerBench } from './throttler';
import { runWebhooksBench } from './webhooks';

const SCENARIOS: Record<string, { describe: string; run: () => Promise<void> }> = {
  all: {
    describe: 'every hot-path scenario below, in one run and one table (the default)',
    run: () => runSuite(ALL_SCENARIOS),
  },
  userinfo: {
    describe:
      'GET /v1/userinfo with BENCH_USERINFO_TOKENS valid tokens (100000: beyond the token cache): Sesame (Express, Fastify) vs oidc-provider vs a bare node:http floor',
    run: () => runSuite(['userinfo']),
  },
  'userinfo-cached': {
    describe: "the same with 1000 tokens, all held in Sesame's token cache",
    run: () => runSuite(['userinfo-cached']),
  },
  verify: {
    describe: 'POST /v1/verify, one fresh PKCE code per request, Basic auth: Sesame vs oidc-provider vs floor',
    run: () => runSuite(['verify']),
  },
  organization: {
    describe: 'GET /v2/organization/{id} through the API-key guard and the tenant throttler: Sesame vs floor',
    run: () => runSuite(['organization']),
  },
  'login-activity': {
    describe: "GET /v2/organization/{id}/login_attempt (the console's login activity, newest page): Sesame vs floor",
    run: () => runSuite(['login-activity']),
  },
  'authenticate-direct': {
    describe: 'POST /v1/authenticate_direct, an address of its own per request (no worker): Sesame vs floor',
    run: () => runSuite(['authenticate-direct']),
  },
  mail: {
    describe: 'POST /v1/authenticate_direct to the mail arriving at an SMTP sink: p50/p99 latency, lost mail',
    run: () => runSuite(['mail']),
  },
  profile: {
    describe: 'CPU profile of auth-api (Express) under userinfo and verify load: top self-time functions and packages',
    run: runProfile,
  },
  scale: {
    describe:
      'the hot paths near-empty and at 1 M rows in one run (Express, Fastify; uncached userinfo vs the peer), the maintenance job under load, plans and sizes',
    run: runScaleBench,
  },
  instances: {
    describe: 'POST /v1/authenticate_direct through nginx in front of one, two and three auth-api instances, side by side',
    run: runInstancesBench,
  },
  throttler: {
    describe: 'latency added by the rate limiter on a real management endpoint, limiter on vs off',
    run: runThrottlerBench,
  },
  webhooks: {
    describe:
      'POST /v1/login_code for a tenant with three webhook endpoints (worker delivering to receivers here) vs one with none, side by side: throughput ratio, delivery lag, lost events',
    run: runWebhooksBench,
  },
};

function usage(): string {
  return `Usage: npm run bench [-- <scenario>[,<scenario>…]]\n\nScenarios:\n${Object.entries(SCENARIOS)
    .map(([key, value]) => `  ${key.padEnd(13)} ${value.describe}`)
    .join('\n')}\n\nKnobs (environment): see bench/settings.ts and docs/benchmarks.md.\n`;
}

async function main(): Promise<void> {
  const name = process.argv[2] ?? 'all';
  if (name === '--help' || name === '-h' || name === 'list') {
    process.stdout.write(usage());
    return;
  }
  const names = name.split(',').map((part) => part.trim());
  const suite = names.filter((part): part is SuiteScenario => (ALL_SCENARIOS as string[]).includes(part));
  const unknown = names.filter((part) => !SCENARIOS[part]);
  if (unknown.length) {
    process.stderr.write(`Unknown scenario ${unknown.join(', ')}\n\n${usage()}`);
    process.exit(1);
  }
  if (names.length > 1) {
    if (suite.length !== names.length) throw new Error(`Only the hot-path scenarios (${ALL_SCENARIOS.join(', ')}) can be combined`);
    await runSuite(suite);
    return;
  }
  await SCENARIOS[name].run();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
