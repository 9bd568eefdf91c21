// ESLint flat config: the recommended JavaScript and TypeScript rules, plus import boundaries that keep
// the monorepo's parts apart (apps talk to each other only through Postgres and Bull queues, and
// libraries are used only through their public entry point, @sesame/<lib>).
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Folder names under apps/ or libs/, read from disk so that a new app or library is covered without editing this file. */
function packagesIn(folder) {
  return readdirSync(new URL(`./${folder}/`, import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

const APPS = packagesIn('apps');
const LIBS = packagesIn('libs');

const LIB_INTERNALS = {
  group: ['@sesame/*/*'],
  message: 'Import a library through its public entry point, @sesame/<lib>, and export what you need from its index.ts.',
};
const LIBS_BY_PATH = {
  group: ['**/libs/**'],
  message: 'Import a library through @sesame/<lib>, not by a relative path into libs/.',
};

/** Relative paths into a sibling package: `../../auth-api/src/x` from inside apps/, or `**\/apps/auth-api/x`. */
function siblingPaths(kind, names) {
  return names.flatMap((name) => [`**/${kind}/${name}/**`, `**/${name}/src/**`, `**/${name}/src`]);
}

function restrictImports(patterns) {
  return { 'no-restricted-imports': ['error', { patterns }] };
}

/** An app may use every library, but no other app: apps share Postgres and queues, never code. */
const appBoundaries = APPS.map((app) => ({
  files: [`apps/${app}/**/*.ts`],
  rules: restrictImports([
    LIB_INTERNALS,
    LIBS_BY_PATH,
    {
      group: siblingPaths(
        'apps',
        APPS.filter((other) => other !== app),
      ),
      message: 'Apps never import each other; share code through a library in libs/ and talk through Postgres or a queue (libs/queue).',
    },
  ]),
}));

/** A library may use other libraries through @sesame/<lib> only, and never an app. */
const libBoundaries = LIBS.map((lib) => ({
  files: [`libs/${lib}/**/*.ts`],
  rules: restrictImports([
    LIB_INTERNALS,
    {
      group: [
        ...siblingPaths(
          'libs',
          LIBS.filter((other) => other !== lib),
        ),
      ],
      message: LIBS_BY_PATH.message,
    },
    { group: ['**/apps/**', ...siblingPaths('apps', APPS)], message: 'Libraries must not depend on apps.' },
  ]),
}));

/** Tests, scripts and benchmarks may reach into apps (to build a module under test), but libraries only through @sesame/<lib>. */
const toolingBoundaries = {
  files: ['test/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
  rules: restrictImports([LIB_INTERNALS, LIBS_BY_PATH]),
};

/**
 * One way to the database: every statement is written in a repository of libs/entities (one per
 * table, see docs/decisions.md). Migrations and the CLIs keep their own SQL; tests set up state
 * with SQL of their own.
 */
const DATABASE_ACCESS = {
  message: 'Reach the database through a repository in libs/entities/src/repositories (one per table), not from here.',
};
const databaseAccess = {
  files: ['apps/**/*.ts', 'libs/**/*.ts'],
  ignores: [
    'libs/entities/src/repositories/**',
    'libs/entities/src/migrations/**',
    '**/cli.ts',
    'libs/entities/src/cli-data-source.ts',
    '**/*.spec.ts',
  ],
  rules: {
    'no-restricted-syntax': [
      'error',
      ...['query', 'createQueryBuilder', 'getRepository'].flatMap((name) => [
        { selector: `CallExpression[callee.property.name='${name}']`, ...DATABASE_ACCESS },
        { selector: `CallExpression[callee.name='${name}']`, ...DATABASE_ACCESS },
      ]),
      ...['InjectDataSource', 'InjectRepository'].map((name) => ({
        selector: `Decorator[expression.callee.name='${name}']`,
        ...DATABASE_ACCESS,
      })),
    ],
  },
};

export default defineConfig(
  globalIgnores(['**/dist/', '**/node_modules/', '.data/', 'coverage/', 'test-artifacts/', 'bench/results/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // The configuration files at the root (jest.config.js, this file) run on Node.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: { URL: 'readonly', process: 'readonly', console: 'readonly' } },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.ts'],
    rules: {
      // A warning, not an error: an unused import left behind while work is in progress should not fail CI.
      // `_`-prefixed names mark parameters that a signature needs but the body does not use.
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Input validation matches control characters on purpose (e.g. "plain text on one line" patterns).
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts'],
    rules: {
      // Tests often initialise a loop variable for readability before the loop assigns it.
      'no-useless-assignment': 'warn',
    },
  },
  ...appBoundaries,
  ...libBoundaries,
  toolingBoundaries,
  databaseAccess,
);
