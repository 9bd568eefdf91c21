import { createHash } from 'node:crypto';
import { ClientSecretVerifier, ManualClock } from '@sesame/common';
import { Client } from 'pg';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { SigningKeysService } from '../../apps/auth-api/src/tokens/signing-keys.service';
import { RunningApp, startAuthApi, startManagementApi } from '../support/apps';
import { FILE_REDIS_PREFIX, testConfig } from '../support/config';
import { acquireConsoleLock, CONSOLE_SETUP_TIMEOUT_MS, setUpConsole } from '../support/console';
import { query } from '../support/direct-auth';
import { createWebApplication } from '../support/fixtures';
import { basicAuth, uniqueEmail } from '../support/login';
import { PLATFORM_KEY } from '../support/management';
import { REPOSITORY_ROOT } from './support/dockerfile';

const run = promisify(execFile);

/** The command-line tools, run as an operator runs them (node dist/…, the run's DATABASE_URL and SECRETS_KEY). */
async function cli(app: 'management-api' | 'auth-api', ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [`dist/apps/${app}/src/cli.js`, ...args], {
    cwd: REPOSITORY_ROOT,
    env: { ...process.env, REDIS_PREFIX: FILE_REDIS_PREFIX },
  });
  return stdout;
}

describe('command-line tools', () => {
  it('tenant:create prints the first API key of a new tenant, and the key works', async () => {
    const printed = await cli('management-api', 'tenant:create', '--name', 'Acme CLI', '--plan', 'pro');
    const key = /API key \(shown once\): (sk_[A-Za-z0-9_-]+)/.exec(printed)?.[1];
    expect(key).toBeDefined();
    const api = await startManagementApi();
    try {
      const tenants = await request(api.url).get('/api/v2/tenant').set('Authorization', `Bearer ${key}`).expect(200);
      expect(tenants.body.data).toEqual([expect.objectContaining({ name: 'Acme CLI', plan: 'pro' })]);
    } finally {
      await api.close();
    }
  });

  it('migrate replaces bare SHA-256 client secret hashes with HMAC verifiers, and the secrets keep working', async () => {
    const config = testConfig();
    const management = await startManagementApi();
    const auth = await startAuthApi();
    const db = new Client({ connectionString: config.database.url });
    await db.connect();
    try {
      const app = await createWebApplication(management.url);
      // As a row from before verifiers: the bare SHA-256 only.
      await db.query('UPDATE application SET client_secret_hash = $2, client_secret_verifier = NULL WHERE id = $1', [
        app.applicationId,
        createHash('sha256').update(app.clientSecret!).digest(),
      ]);
      const status = () =>
        request(auth.url).get('/api/v1/login_attempt/00000000-0000-4000-8000-000000000000').set('Authorization', basicAuth(app));
      await status().expect(404);

      expect(await cli('management-api', 'migrate')).toMatch(/Client secrets: \d+ bare SHA-256 hashes replaced by HMAC verifiers/);
      const { rows } = await db.query('SELECT client_secret_hash, client_secret_verifier FROM application WHERE id = $1', [
        app.applicationId,
      ]);
      expect(rows[0].client_secret_hash).toBeNull();
      expect(rows[0].client_secret_verifier.equals(new ClientSecretVerifier(config.secrets.key).of(app.clientSecret!))).toBe(true);
      await status().expect(404);
    } finally {
      await db.end();
      await auth.close();
      await management.close();
    }
  });

  it('tenant:create --owner-email also creates the first owner, who is invited', async () => {
    const owner = uniqueEmail('cli-owner');
    const printed = await cli('management-api', 'tenant:create', '--name', 'Acme owned', '--plan', 'free', '--owner-email', owner);
    expect(printed).toContain(`Owner ${owner}: invited to the console (http://localhost:3000/console)`);
    const key = /API key \(shown once\): (sk_[A-Za-z0-9_-]+)/.exec(printed)![1];
    const api = await startManagementApi();
    try {
      const members = await request(api.url).get('/api/v2/tenant/member').set('Authorization', `Bearer ${key}`).expect(200);
      expect(members.body.data).toEqual([expect.objectContaining({ email: owner, role: 'owner', invitedBy: null })]);
    } finally {
      await api.close();
    }
  });

  it(
    "console:setup creates the console's system tenant once, keeps it up to date with CONSOLE_PUBLIC_URL, and hides it",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'sesame-cli-console-'));
      const release = await acquireConsoleLock();
      try {
        const file = join(dir, 'console.json');
        const first = await setUpConsole('http://localhost:3000/console', file);
        expect(first.printed).toContain(`Console application ready for http://localhost:3000/console (client id ${first.clientId})`);
        expect(first.printed).not.toContain(first.clientSecret);
        expect(statSync(file).mode & 0o777).toBe(0o600);
        const moved = await setUpConsole('https://id.example.com/console', file);
        expect([moved.clientId, moved.clientSecret]).toEqual([first.clientId, first.clientSecret]);
        const rotated = await setUpConsole('https://id.example.com/console', file, '--rotate-secret');
        expect(rotated.clientId).toBe(first.clientId);
        expect(rotated.clientSecret).not.toBe(first.clientSecret);
        const rows = await query<{ plan: string; whitelist_domains: string[]; callback_urls: string[]; type: string }>(
          `SELECT t.plan, o.whitelist_domains, a.callback_urls, a.type FROM tenant t JOIN organization o ON o.tenant_id = t.id JOIN application a ON a.organization_id = o.id WHERE t.system`,
        );
        expect(rows).toEqual([
          {
            plan: 'enterprise',
            whitelist_domains: ['https://id.example.com'],
            callback_urls: ['https://id.example.com/console/auth/callback'],
            type: 'web',
          },
        ]);

        const api = await startManagementApi();
        try {
          const systemId = (await query<{ id: string }>('SELECT id FROM tenant WHERE system'))[0].id;
          const tenants = await request(api.url)
            .get('/api/v2/tenant')
            .query({ limit: '100' })
            .set('Authorization', `Bearer ${PLATFORM_KEY}`)
            .expect(200);
          expect(tenants.body.data.map((tenant: { id: string }) => tenant.id)).not.toContain(systemId);
          await request(api.url).get(`/api/v2/tenant/${systemId}`).set('Authorization', `Bearer ${PLATFORM_KEY}`).expect(404);
          await request(api.url)
            .post(`/api/v2/tenant/${systemId}`)
            .set('Authorization', `Bearer ${PLATFORM_KEY}`)
            .send({ plan: 'free' })
            .expect(404);
        } finally {
          await api.close();
        }
      } finally {
        await release();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    CONSOLE_SETUP_TIMEOUT_MS,
  );

  it('signing-key:rotate publishes the new key at once and signs with it ten minutes later, the old key staying published', async () => {
    const clock = new ManualClock();
    const auth: RunningApp = await startAuthApi({ clock });
    try {
      const jwks = async () =>
        ((await request(auth.url).get('/api/v1/.well-known/jwks.json').expect(200)).body.keys as { kid: string }[]).map((key) => key.kid);
      const before = await jwks();
      const printed = await cli('auth-api', 'signing-key:rotate');
      const kid = /New signing key ([0-9a-f-]{36})/.exec(printed)?.[1];
      expect(kid).toBeDefined();
      const after = await jwks();
      expect(after).toEqual(expect.arrayContaining([...before, kid]));
      const keys = auth.app.get(SigningKeysService);
      clock.advance(2 * 60); // past the instance's one-minute key cache, not past the activation delay
      expect((await keys.signingKey()).kid).not.toBe(kid);
      clock.advance(9 * 60);
      expect((await keys.signingKey()).kid).toBe(kid);
    } finally {
      await auth.close();
    }
  });
});
