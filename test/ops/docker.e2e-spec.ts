import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { acquireConsoleLock, CONSOLE_SETUP_TIMEOUT_MS } from '../support/console';
import { DockerCommandProcess } from './support/app-process';
import { effective, healthCheckCommand, parseDockerfile, REPOSITORY_ROOT, runs, startCommand } from './support/dockerfile';

type Service = {
  image?: string;
  build?: { context: string; dockerfile: string; target: string };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
};

const APPS = ['management-api', 'auth-api', 'mail-worker', 'console'] as const;
const CREDENTIALS = '/run/sesame-console/credentials.json';
const compose = load(readFileSync(join(REPOSITORY_ROOT, 'docker/compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const stages = parseDockerfile();

describe('docker/Dockerfile', () => {
  it('builds with npm ci and `npm run build` (what CI runs before these tests), then drops the development dependencies', () => {
    expect(runs(stages, 'build')).toEqual([
      'npm ci --ignore-scripts --no-audit --no-fund',
      'npm run build',
      'npm prune --omit=dev --ignore-scripts --no-audit --no-fund',
    ]);
    expect(readFileSync(join(REPOSITORY_ROOT, '.ci/run'), 'utf8')).toMatch(/^npm run build$/m);
  });

  it('runs each app on a slim Node image as the unprivileged node user, with a health check', () => {
    expect(readFileSync(join(REPOSITORY_ROOT, 'docker/Dockerfile'), 'utf8')).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    for (const app of APPS) {
      expect([app, effective(stages, app, 'USER')]).toEqual([app, 'node']);
      expect([app, effective(stages, app, 'WORKDIR')]).toEqual([app, '/app']);
      expect([app, startCommand(app, stages)]).toEqual([app, ['node', `dist/apps/${app}/src/main.js`]]);
      expect([app, healthCheckCommand(app, stages)[0]]).toEqual([app, 'node']);
      expect(effective(stages, app, 'HEALTHCHECK')).toMatch(/--interval=\S+ --timeout=\S+/);
    }
  });

  it('the image holds what the start and health-check commands use, where the tests run them from (the repository root)', () => {
    const copies = stages.find((stage) => stage.name === 'runtime')!.instructions.filter((instruction) => instruction.keyword === 'COPY');
    const copied = copies.map((instruction) => instruction.args.split(/\s+/).slice(-1)[0].replace(/^\.\//, ''));
    expect(copied).toEqual([
      'package.json',
      'node_modules',
      'dist',
      'apps/console/web/package.json',
      'apps/console/web/dist',
      'docker/healthcheck.js',
    ]);
    for (const path of copied) expect([path, existsSync(join(REPOSITORY_ROOT, path))]).toEqual([path, true]);
    for (const app of APPS) {
      for (const file of [startCommand(app, stages)[1], healthCheckCommand(app, stages)[1]])
        expect([file, existsSync(join(REPOSITORY_ROOT, file))]).toEqual([file, true]);
    }
  });
});

describe('the production dependencies (what `npm prune --omit=dev` leaves in the image)', () => {
  const lock = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  const production = new Set(
    Object.entries(lock.packages)
      .filter(([path, entry]) => path.startsWith('node_modules/') && !entry.dev)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  );

  it('carry no template engine Sesame never uses, no native CSS inliner, and no jose (only tests use it)', () => {
    const unwanted = [
      'pug',
      'ejs',
      'nunjucks',
      'liquidjs',
      'mjml',
      'preview-email',
      '@css-inline/css-inline',
      '@nestjs-modules/mailer',
      'jose',
    ];
    expect(unwanted.filter((name) => production.has(name))).toEqual([]);
  });

  it('leave out the console’s build tools and libraries: its pages are built files', () => {
    expect(['react', 'react-dom', 'vite', 'recharts', '@tanstack/react-query'].filter((name) => production.has(name))).toEqual([]);
  });

  it('keep what the apps load: handlebars for the e-mails, nodemailer, the queue dashboard', () => {
    for (const name of ['handlebars', 'nodemailer', '@bull-board/api', '@bull-board/ui'])
      expect([name, production.has(name)]).toEqual([name, true]);
  });
});

describe('docker/compose.yml', () => {
  it("has Postgres 16 with a volume, Redis 7 with an append-only file, a mail catcher, the migration, the console's set-up, the apps and the gateway", () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [
        'auth-api',
        'console',
        'console-setup',
        'gateway',
        'mail-worker',
        'mailpit',
        'management-api',
        'migrate',
        'postgres',
        'redis',
      ].sort(),
    );
    const { postgres, redis, mailpit } = compose.services;
    expect(postgres.image).toBe('postgres:16');
    expect(postgres.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
    expect(redis.image).toBe('redis:7');
    expect(redis.command).toEqual(expect.arrayContaining(['--appendonly', 'yes']));
    expect(redis.volumes).toEqual(['redis-data:/data']);
    expect(mailpit.image).toBe('axllent/mailpit');
    expect(Object.keys(compose.volumes).sort()).toEqual(['console-credentials', 'postgres-data', 'redis-data']);
  });

  it('builds each app from the Dockerfile target of its name and runs its CMD; the apps trust only the private network', () => {
    for (const app of APPS) {
      const service = compose.services[app];
      expect([app, service.build]).toEqual([app, { context: '..', dockerfile: 'docker/Dockerfile', target: app }]);
      expect([app, service.command]).toEqual([app, undefined]);
      expect(service.environment).toEqual(
        expect.objectContaining({
          TRUST_PROXY: 'uniquelocal',
          REDIS_URL: 'redis://redis:6379',
          SMTP_URL: '${SMTP_URL:-smtp://mailpit:1025}',
        }),
      );
      expect(service.depends_on).toEqual(
        expect.objectContaining({ migrate: { condition: 'service_completed_successfully' }, redis: { condition: 'service_healthy' } }),
      );
      expect(service.stop_grace_period).toBe('30s');
    }
  });

  it('migrates once with the management image before the apps start', () => {
    const { migrate } = compose.services;
    expect(migrate.build!.target).toBe('management-api');
    expect(migrate.command).toEqual(['node', 'dist/apps/management-api/src/cli.js', 'migrate']);
    expect(migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
  });

  it('sets the console up once after the migration and hands it its credentials through a volume; the console calls Sesame through the gateway', () => {
    const { 'console-setup': setup, console } = compose.services;
    expect(setup.build!.target).toBe('management-api');
    expect(setup.command).toEqual(['node', 'dist/apps/management-api/src/cli.js', 'console:setup', '--credentials-file', CREDENTIALS]);
    expect(setup.volumes).toEqual(['console-credentials:/run/sesame-console']);
    expect(setup.depends_on).toEqual({ migrate: { condition: 'service_completed_successfully' } });
    expect(console.volumes).toEqual(['console-credentials:/run/sesame-console:ro']);
    expect(console.environment).toEqual(
      expect.objectContaining({ CONSOLE_CREDENTIALS_FILE: CREDENTIALS, CONSOLE_SESAME_URL: 'http://gateway:3000/api' }),
    );
    expect(console.depends_on).toEqual(expect.objectContaining({ 'console-setup': { condition: 'service_completed_successfully' } }));
    // The image's node user may write where the volume is mounted.
    expect(runs(stages, 'runtime')).toContain('mkdir -p /run/sesame-console && chown node:node /run/sesame-console');
  });

  it('serves the gateway on :3000 with docker/nginx.conf, once the APIs and the console are healthy', () => {
    const { gateway } = compose.services;
    expect(gateway.image).toMatch(/^nginx:/);
    expect(gateway.volumes).toEqual(['./nginx.conf:/etc/nginx/nginx.conf:ro']);
    expect(gateway.ports).toEqual(['3000:3000']);
    expect(gateway.depends_on).toEqual({
      'auth-api': { condition: 'service_healthy' },
      'management-api': { condition: 'service_healthy' },
      console: { condition: 'service_healthy' },
    });
  });

  it("the migrate service's command works here (the run's database is already migrated)", async () => {
    const migrate = new DockerCommandProcess(compose.services.migrate.command!, process.env);
    expect(await migrate.exited).toEqual({ code: 0, signal: null });
    expect(migrate.output.lines).toContain('Database is up to date');
  });

  it(
    "the console-setup service's command works here (its file in a temporary directory instead of the volume)",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sesame-console-setup-'));
      const release = await acquireConsoleLock();
      try {
        const command = compose.services['console-setup'].command!.map((arg) =>
          arg === CREDENTIALS ? join(dir, 'credentials.json') : arg,
        );
        const setup = new DockerCommandProcess(command, process.env);
        expect(await setup.exited).toEqual({ code: 0, signal: null });
        expect(JSON.parse(readFileSync(join(dir, 'credentials.json'), 'utf8'))).toEqual({
          clientId: expect.any(String),
          clientSecret: expect.stringMatching(/^cs_/),
        });
      } finally {
        await release();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    CONSOLE_SETUP_TIMEOUT_MS,
  );
});
