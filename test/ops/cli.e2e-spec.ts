import { ManualClock } from '@sesame/common';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import request from 'supertest';
import { SigningKeysService } from '../../apps/auth-api/src/tokens/signing-keys.service';
import { RunningApp, startAuthApi, startManagementApi } from '../support/apps';
import { FILE_REDIS_PREFIX } from '../support/config';
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

  it('signing-key:rotate publishes the new key at once and signs with it ten minutes later, the old key staying published', async () => {
    const clock = new ManualClock();
    const auth: RunningApp = await startAuthApi({ clock });
    try {
      const jwks = async () => ((await request(auth.url).get('/api/v1/.well-known/jwks.json').expect(200)).body.keys as { kid: string }[]).map((key) => key.kid);
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
