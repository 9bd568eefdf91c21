import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/apps';
import { Client } from 'pg';
import { FILE_REDIS_PREFIX } from '../support/config';
import { ADMIN_DATABASE_URL, databaseUrlFor, runId } from '../support/test-env';
import { REPOSITORY_ROOT } from './support/dockerfile';
import { LineCollector } from './support/lines';

/**
 * `npm start`'s launcher (node dist/scripts/start.js, what `npm start` runs after building): it
 * brings the stack up behind its gateway, the curl line it prints answers the demo organization,
 * the console it prints answers with its sign-in page, Ctrl-C stops it cleanly, and a second start
 * keeps the data. It uses a database of its own on the test Postgres (DATABASE_URL) instead of an
 * embedded one (it generates its own SECRETS_KEY, and the console's system tenant is one per
 * database), its own data directory and free ports.
 */
describe('npm start (the local launcher)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sesame-launcher-'));
  const database = `sesame_test_launcher_${runId()}`;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE "${database}"`);
    const ports = await Promise.all(
      ['GATEWAY_PORT', 'MANAGEMENT_PORT', 'AUTH_PORT', 'MAIL_WORKER_PORT', 'CONSOLE_PORT', 'MAILDEV_SMTP_PORT', 'MAILDEV_WEB_PORT'].map(
        async (name) => [name, String(await freePort())],
      ),
    );
    env = {
      ...process.env,
      ...Object.fromEntries(ports),
      DATABASE_URL: databaseUrlFor(database),
      SESAME_DATA_DIR: dataDir,
      REDIS_PREFIX: `${FILE_REDIS_PREFIX}-launcher`,
      LOG_LEVEL: 'warn',
    };
    delete env.SMTP_URL;
    delete env.PUBLIC_BASE_URL;
    delete env.SECRETS_KEY;
    delete env.PLATFORM_API_KEY;
    delete env.CONSOLE_PUBLIC_URL;
    delete env.CONSOLE_CREDENTIALS_FILE;
  });

  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  });

  function launch(overrides: NodeJS.ProcessEnv = {}): { child: ChildProcess; output: LineCollector; exited: Promise<number | null> } {
    const child = spawn(process.execPath, ['dist/scripts/start.js'], {
      cwd: REPOSITORY_ROOT,
      env: { ...env, ...overrides },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = new LineCollector();
    output.attach(child.stdout!);
    output.attach(child.stderr!);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, output, exited };
  }

  /**
   * Starts the launcher, runs the curl line it prints (as an HTTP request), opens the console it
   * prints, stops it with Ctrl-C; returns the organization it answered.
   */
  async function startCurlStop(): Promise<{ id: string; name: string }> {
    const { child, output, exited } = launch();
    try {
      const curl = await output.waitFor((line) => /^\s*curl -H "Authorization: Bearer sk_/.test(line), 90_000, 'the printed curl line');
      const [, key, url] = /Bearer (sk_[A-Za-z0-9_-]+)" (\S+)/.exec(curl)!;
      const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
      const consoleLine = output.lines.find((line) => /^\s*Console\s/.test(line))!;
      expect(consoleLine).toMatch(
        new RegExp(
          `Console\\s+http://localhost:${env.GATEWAY_PORT}/console\\s+\\(sign in as admin@example.com: the link arrives in the mail inbox\\)`,
        ),
      );
      const page = await fetch(`http://localhost:${env.GATEWAY_PORT}/console`);
      const html = await page.text();
      expect([page.status, html]).toEqual([200, expect.stringContaining('<title>Sesame console</title>')]);
      const script = await fetch(`http://localhost:${env.GATEWAY_PORT}${/src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1]}`);
      expect(script.status).toBe(200);
      const members = await fetch(url.replace(/\/organization\/.*$/, '/tenant/member'), { headers: { Authorization: `Bearer ${key}` } });
      expect(((await members.json()) as { data: unknown[] }).data).toEqual([
        expect.objectContaining({ email: 'admin@example.com', role: 'owner' }),
      ]);
      return (await response.json()) as { id: string; name: string };
    } finally {
      child.kill('SIGINT');
      expect(await exited).toBe(0);
    }
  }

  it('prints a curl line that answers the demo organization through the gateway; a second start keeps the data', async () => {
    const first = await startCurlStop();
    expect(first.name).toBe('Demo organization');
    const second = await startCurlStop();
    expect(second.id).toBe(first.id);
  }, 240_000);

  describe('without REDIS_URL and with nothing on the local Redis port', () => {
    it('starts redis-server from the PATH, append-only with its data in .data/redis, and stops it with the rest', async () => {
      const port = await freePort();
      const { child, output, exited } = launch({ REDIS_URL: '', LOCAL_REDIS_PORT: String(port) });
      try {
        await output.waitFor(
          (line) => line.includes(`Starting a local Redis (append-only, data in .data/redis, port ${port})`),
          30_000,
          'the Redis line',
        );
        const curl = await output.waitFor((line) => /^\s*curl -H "Authorization: Bearer sk_/.test(line), 90_000, 'the printed curl line');
        const [, key, url] = /Bearer (sk_[A-Za-z0-9_-]+)" (\S+)/.exec(curl)!;
        expect((await fetch(url, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
        expect(readdirSync(join(dataDir, 'redis'))).toContain('appendonlydir');
      } finally {
        child.kill('SIGINT');
        expect(await exited).toBe(0);
      }
      await expect(tcpAnswers(port)).resolves.toBe(false);
    }, 180_000);

    it('says in one line how to install Redis when redis-server is not on the PATH', async () => {
      const emptyPath = mkdtempSync(join(tmpdir(), 'sesame-no-redis-'));
      const { output, exited } = launch({ REDIS_URL: '', LOCAL_REDIS_PORT: String(await freePort()), PATH: emptyPath });
      expect(await exited).toBe(1);
      expect(output.lines).toContain(
        'Redis is not running and redis-server is not installed: install it (`apt-get install redis-server` or `brew install redis`), or set REDIS_URL.',
      );
      rmSync(emptyPath, { recursive: true, force: true });
    }, 60_000);
  });
});

function tcpAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function adminQuery(sql: string): Promise<void> {
  const admin = new Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
