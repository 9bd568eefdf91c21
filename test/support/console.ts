import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import request, { Response } from 'supertest';
import { readConsoleCredentials } from '../../apps/console/src/console-credentials';
import { ConsoleModule } from '../../apps/console/src/console.module';
import { setupConsoleApp } from '../../apps/console/src/setup';
import { RunningApp, startApp, StartOptions } from './apps';
import { FILE_REDIS_PREFIX } from './config';
import { GatewayStack, startGatewayStack } from './gateway';
import { linkIn, ReceivedMail, SmtpSink } from './smtp-sink';

export interface ConsoleStack extends GatewayStack {
  console: RunningApp;
  /** CONSOLE_PUBLIC_URL, e.g. http://127.0.0.1:41234/console */
  consoleUrl: string;
  credentials: { clientId: string; clientSecret: string };
}

/** How long a test file's set-up may wait for the console lock (other files' consoles) and start its own. */
export const CONSOLE_SETUP_TIMEOUT_MS = 240_000;

/** Any number: the lock test files take while they run a console (see acquireConsoleLock). */
const CONSOLE_LOCK = 7_133_018;

/**
 * The run's database has one console system tenant, whose whitelist and callback follow the
 * CONSOLE_PUBLIC_URL of the last `console:setup`; every test stack has its own gateway address.
 * So test files that set up a console take turns: each holds this lock (a Postgres session
 * advisory lock) from its set-up to its end. Resolves with the release.
 */
export async function acquireConsoleLock(): Promise<() => Promise<void>> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query('SELECT pg_advisory_lock($1)', [CONSOLE_LOCK]);
  return async () => {
    await client.query('SELECT pg_advisory_unlock($1)', [CONSOLE_LOCK]).catch(() => undefined);
    await client.end();
  };
}

/**
 * `npm run cli -- console:setup --credentials-file <file>` as npm start and compose run it (from
 * dist/, so after `npm run build`): the console's system tenant, organization and application for
 * this CONSOLE_PUBLIC_URL, and its credentials in the file.
 */
export async function setUpConsole(
  consoleUrl: string,
  file: string,
  ...options: string[]
): Promise<{ clientId: string; clientSecret: string; printed: string }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['dist/apps/management-api/src/cli.js', 'console:setup', '--credentials-file', file, ...options],
    {
      cwd: resolve(__dirname, '../..'),
      env: { ...process.env, REDIS_PREFIX: FILE_REDIS_PREFIX, CONSOLE_PUBLIC_URL: consoleUrl },
    },
  );
  return { ...(JSON.parse(readFileSync(file, 'utf8')) as { clientId: string; clientSecret: string }), printed: stdout };
}

/**
 * The whole stack behind one gateway, the console included: `console:setup` creates the console's
 * system tenant and application, its credentials go to a file as in production
 * (CONSOLE_CREDENTIALS_FILE), and the console serves /console. Holds the console lock until closed.
 */
export async function startConsoleStack(smtpUrl: string, options: StartOptions = {}): Promise<ConsoleStack> {
  const release = await acquireConsoleLock();
  const gateway = await startGatewayStack(smtpUrl, options).catch(async (error: unknown) => {
    await release();
    throw error;
  });
  const dir = mkdtempSync(join(tmpdir(), 'sesame-console-'));
  try {
    const file = join(dir, 'console.json');
    const { clientId, clientSecret } = await setUpConsole(`${gateway.origin}/console`, file);
    const credentials = { clientId, clientSecret };
    const env = {
      ...options.env,
      PUBLIC_BASE_URL: gateway.publicBaseUrl,
      CONSOLE_PUBLIC_URL: `${gateway.origin}/console`,
      CONSOLE_CREDENTIALS_FILE: file,
    };
    const console = await startApp((config) => ConsoleModule.forRoot(config, readConsoleCredentials(config)), {
      ...options,
      env,
      setup: setupConsoleApp,
    });
    gateway.route('/console', console.url);
    return {
      ...gateway,
      console,
      consoleUrl: `${gateway.origin}/console`,
      credentials,
      close: async () => {
        await console.close();
        await gateway.close();
        rmSync(dir, { recursive: true, force: true });
        await release();
      },
    };
  } catch (error) {
    await gateway.close();
    await release();
    throw error;
  }
}

/**
 * A browser for the console's routes, reduced to what the tests need: it keeps the cookies the
 * console sets (HttpOnly and Secure ones too: browsers keep Secure cookies from http://localhost and
 * 127.0.0.1) and sends them back, and it knows its CSRF token.
 */
export class ConsoleBrowser {
  readonly cookies = new Map<string, string>();
  csrfToken: string | null = null;

  constructor(private readonly origin: string) {}

  get(path: string): request.Test {
    return this.withCookies(request(this.origin).get(path));
  }

  /** A change with the CSRF token (call session() once first). */
  post(path: string, body?: object): request.Test {
    const test = this.withCookies(request(this.origin).post(path)).set('X-CSRF-Token', this.csrfToken ?? '');
    return body === undefined ? test : test.send(body);
  }

  delete(path: string): request.Test {
    return this.withCookies(request(this.origin).delete(path)).set('X-CSRF-Token', this.csrfToken ?? '');
  }

  /** GET /console/api/session, keeping its CSRF token. */
  async session(): Promise<Record<string, unknown>> {
    const response = await this.get('/console/api/session').expect(200);
    this.csrfToken = response.body.csrfToken;
    return response.body;
  }

  /** The access token in the session cookie (what the browser holds but cannot read: HttpOnly). */
  get accessToken(): string | null {
    return this.cookies.get('sesame_console_session') || null;
  }

  /** Keeps the cookies of an answer (a cookie set with Max-Age=0 is dropped). */
  keep(response: Response): Response {
    for (const cookie of ([] as string[]).concat(response.headers['set-cookie'] ?? [])) {
      const [pair, ...attributes] = cookie.split(';');
      const [name, ...value] = pair.split('=');
      if (attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute))) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.join('='));
    }
    return response;
  }

  private withCookies(test: request.Test): request.Test {
    if (this.cookies.size > 0) test.set('Cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    return test.ok(() => true).on('response', (response: Response) => this.keep(response)) as request.Test;
  }
}

/**
 * Signs `email` in through the console's routes, as a person does: the sign-in form, the e-mail
 * from the SMTP sink, the link's page (Continue), and the callback. Returns the signed-in browser.
 */
export async function signInThroughConsole(stack: ConsoleStack, smtp: SmtpSink, email: string): Promise<ConsoleBrowser> {
  const browser = new ConsoleBrowser(stack.origin);
  await browser.session();
  await browser.post('/console/api/sign_in', { email }).expect(200);
  const token = new URL(linkIn(await signInMail(smtp, email))).searchParams.get('token')!;
  const continued = await request(stack.origin).post('/api/v1/login_link').type('form').send({ token }).expect(303);
  const callback = new URL(continued.headers.location);
  const landed = await browser.get(`${callback.pathname}${callback.search}`).expect(303);
  expect(landed.headers.location).toBe(`${stack.consoleUrl}/`);
  await browser.session();
  return browser;
}

/** The next sign-in e-mail to the address (an invitation that came first is passed over). */
async function signInMail(smtp: SmtpSink, email: string): Promise<ReceivedMail> {
  for (;;) {
    const mail = await smtp.next(email);
    if (/\/v1\/login_link\?token=/.test(mail.text)) return mail;
  }
}
