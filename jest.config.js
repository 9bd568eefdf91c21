// Two projects: unit tests beside the code, end-to-end tests in test/ against real Postgres,
// Redis, SMTP and HTTP. TypeScript (and the ESM-only Nest 12 packages) are compiled by SWC.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
      // Rewrites @sesame/* imports to relative paths, also in the global setup (which Jest runs outside its resolver).
      baseUrl: __dirname,
      paths: {
        '@sesame/client': ['libs/client/src/index.ts'],
        '@sesame/client-react-native': ['libs/client-react-native/src/index.ts'],
        '@sesame/*': ['libs/*/src/index.ts'],
      },
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];
// ESM-only packages that Jest's CommonJS runtime must have compiled (Node's require(esm) is not used by Jest on Node 20).
const esmPackages = [
  '@nestjs',
  'file-type',
  'load-esm',
  'uid',
  'strtok3',
  'token-types',
  '@tokenizer',
  'uint8array-extras',
  'jose',
  '@borewit',
  'oauth4webapi',
  'openid-client',
  'oidc-provider',
  '@fastify/static',
  'content-disposition',
];
const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
};

/**
 * Left out of the Fastify pass (`npm run test:fastify`), whose point is the HTTP layer on the second
 * platform. Browser suites drive pages whose HTTP (headers, cookies, redirects, CSP) the other suites
 * assert on both platforms; the rest test what does not serve HTTP through Nest's platform: the
 * worker, the CLIs, the launcher, Redis through Sentinel, migrations and static manifests. They
 * take about half the pass's time.
 */
const platformNeutral = [
  '/test/browser/',
  '/test/client/autologin\\.',
  '/test/client/express-app',
  '/test/openapi/swagger-ui\\.',
  '/test/ops/(cli|docker|kubernetes|launcher|mail-worker-faults|migrations|redis-sentinel|secrets-reencrypt)\\.',
];

module.exports = {
  // Applies to every project (Jest ignores testTimeout inside a project). A guard against a test that
  // hangs, not a speed check: on a loaded two-core machine a browser test takes several times longer
  // than on a quiet one (a 30 s limit failed a browser test whose suite took 84 s beside a benchmark).
  testTimeout: 120_000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      setupFiles: ['<rootDir>/test/support/setup-logging.ts'],
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      testPathIgnorePatterns: process.env.HTTP_PLATFORM === 'fastify' ? ['/node_modules/', ...platformNeutral] : ['/node_modules/'],
    },
    // The compose stack in containers (npm run test:containers): slow, needs root and podman, run on its own.
    { ...shared, displayName: 'containers', testMatch: ['<rootDir>/test/containers/**/*.containers-spec.ts'] },
  ],
};
