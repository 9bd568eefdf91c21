import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { Stack } from './apps';
import { ApplicationFixture } from './fixtures';
import { linkIn, SmtpSink } from './smtp-sink';

/** `Authorization: Basic base64(client_id:client_secret)` of a fixture application (or with another secret). */
export function basicAuth(app: Pick<ApplicationFixture, 'clientId' | 'clientSecret'>, secret: string | null = app.clientSecret): string {
  return `Basic ${Buffer.from(`${app.clientId}:${secret ?? ''}`).toString('base64')}`;
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

let counter = 0;
export const uniqueEmail = (label = 'user') => `${label}-${process.pid}-${Date.now().toString(36)}-${++counter}@example.com`;

export interface DirectLogin {
  email?: string;
  redirectUri?: string;
  state?: string;
  codeChallenge?: string;
}

/** Runs direct authentication through the e-mailed link and returns the callback URL the browser lands on. */
export async function loginByLink(stack: Stack, smtp: SmtpSink, app: ApplicationFixture, login: DirectLogin = {}): Promise<URL> {
  const email = login.email ?? uniqueEmail();
  await request(stack.auth.url)
    .post('/api/v1/authenticate_direct')
    .set('Authorization', basicAuth(app))
    .send({
      email,
      redirect_uri: login.redirectUri ?? 'http://localhost:4000/callback',
      state: login.state ?? 'state',
      ...(login.codeChallenge ? { code_challenge: login.codeChallenge, code_challenge_method: 'S256' } : {}),
    })
    .expect(200);
  return followLink(stack, smtp, email);
}

/** Opens the newest link mailed to `email`, presses Continue, and returns the redirect target. */
export async function followLink(stack: Stack, smtp: SmtpSink, email: string): Promise<URL> {
  const token = new URL(linkIn(await smtp.next(email))).searchParams.get('token')!;
  const response = await request(stack.auth.url).post('/api/v1/login_link').type('form').send({ token }).expect(303);
  return new URL(response.headers.location);
}
