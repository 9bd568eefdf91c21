import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/apps';
import { FILE_REDIS_PREFIX } from '../support/config';
import { REPOSITORY_ROOT } from './support/dockerfile';
import { LineCollector } from './support/lines';

/**
 * `npm start`'s launcher (node dist/scripts/start.js, what `npm start` runs after building): it
 * brings the stack up behind its gateway, the curl line it prints answers the demo organization,
 * Ctrl-C stops it cleanly, and a second start keeps the data. It uses this run's database
 * (DATABASE_URL) instead of an embedded one, its own data directory and free ports.
 */
describe('npm start (the local launcher)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sesame-launcher-'));
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const ports = await Promise.all(['GATEWAY_PORT', 'MANAGEMENT_PORT', 'AUTH_PORT', 'MAIL_WORKER_PORT', 'MAILDEV_SMTP_PORT', 'MAILDEV_WEB_PORT'].map(async (name) => [name, String(await freePort())]));
    env = { ...process.env, ...Object.fromEntries(ports), SESAME_DATA_DIR: dataDir, REDIS_PREFIX: `${FILE_REDIS_PREFIX}-launcher`, LOG_LEVEL: 'warn' };
    delete env.SMTP_URL;
    delete env.PUBLIC_BASE_URL;
    delete env.SECRETS_KEY;
    delete env.PLATFORM_API_KEY;
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  function launch(): { child: ChildProcess; output: LineCollector; exited: Promise<number | null> } {
    const child = spawn(process.execPath, ['dist/scripts/start.js'], { cwd: REPOSITORY_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = new LineCollector();
    output.attach(child.stdout!);
    output.attach(child.stderr!);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, output, exited };
  }

  /** Starts the launcher, runs the curl line it prints (as an HTTP request), stops it with Ctrl-C; returns the organization it answered. */
  async function startCurlStop(): Promise<{ id: string; name: string }> {
    const { child, output, exited } = launch();
    try {
      const curl = await output.waitFor((line) => /^\s*curl -H "Authorization: Bearer sk_/.test(line), 90_000, 'the printed curl line');
      const [, key, url] = /Bearer (sk_[A-Za-z0-9_-]+)" (\S+)/.exec(curl)!;
      const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
      expect(response.status).toBe(200);
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
});
