import { createHash } from 'node:crypto';
import { getQueueToken } from '@nestjs/bull';
import { MAIL_QUEUE } from '@sesame/queue';
import { reachStatus } from '@sesame/common';
import type { Queue } from 'bull';
import type { Redis } from 'ioredis';
import { Client } from 'pg';
import request, { Response } from 'supertest';
import { RunningApp } from './apps';
import { ApplicationFixture } from './fixtures';
import { basicAuth } from './login';
import { linkIn, ReceivedMail } from './smtp-sink';

export const V1 = '/api/v1';

/**
 * For stacks on a ManualClock: the mail sweeper works on the whole database, which every test
 * file shares, so a sweep with a clock far from real time would expire (or re-queue) other
 * files' attempts. An interval longer than any test file keeps it from ever running.
 */
export const NO_SWEEPS: Record<string, string> = { MAIL_SWEEP_INTERVAL_SECONDS: '3600' };

/** POST /v1/authenticate_direct with the application's Basic credentials. */
export function authenticateDirect(authUrl: string, app: ApplicationFixture, body: Record<string, unknown>): request.Test {
  return request(authUrl).post(`${V1}/authenticate_direct`).set('Authorization', basicAuth(app)).send(body);
}

/** GET /v1/login_attempt/{id} as `app`. */
export function loginAttemptStatus(authUrl: string, app: ApplicationFixture, loginAttemptId: string): request.Test {
  return request(authUrl).get(`${V1}/login_attempt/${loginAttemptId}`).set('Authorization', basicAuth(app));
}

/** POST /v1/login_link with the form the link page submits. */
export function useLink(authUrl: string, token: string): request.Test {
  return request(authUrl).post(`${V1}/login_link`).type('form').send({ token });
}

/** The link token of a received login e-mail. */
export function tokenIn(mail: ReceivedMail): string {
  return new URL(linkIn(mail)).searchParams.get('token')!;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Asserts an RFC 6749 §5.2 error answer exactly: status, JSON and the body's two members. */
export function expectOAuthError(response: Response, status: number, error: string, description?: string | RegExp): void {
  expect({
    status: response.status,
    contentType: response.headers['content-type'],
    keys: Object.keys(response.body).sort(),
    error: response.body.error,
  }).toEqual({
    status,
    contentType: expect.stringMatching(/^application\/json/),
    keys: ['error', 'error_description'],
    error,
  });
  expect(typeof response.body.error_description).toBe('string');
  if (typeof description === 'string') expect(response.body.error_description).toBe(description);
  else if (description) expect(response.body.error_description).toMatch(description);
}

/** Runs one query against the run's database (what the API does not show: attempts, codes, throttles). */
export async function query<T = Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return (await client.query(sql, parameters)).rows as T[];
  } finally {
    await client.end();
  }
}

export interface AttemptRow {
  id: string;
  email: string;
  status: string;
  state: string;
  redirect_uri: string;
  code_challenge: string | null;
  mail_suppressed: boolean;
  mail_queued_at: Date | null;
  mail_sent_at: Date | null;
  expires_at: Date;
  used_at: Date | null;
  link_token_encrypted: string | null;
  token_hash: Buffer;
  sentence: string;
}

export function attemptsOf(applicationId: string, email?: string): Promise<AttemptRow[]> {
  return email === undefined
    ? query<AttemptRow>('SELECT * FROM login_attempt WHERE application_id = $1 ORDER BY created_at', [applicationId])
    : query<AttemptRow>('SELECT * FROM login_attempt WHERE application_id = $1 AND email = $2 ORDER BY created_at', [applicationId, email]);
}

/** The Bull `mail` queue of a running app (auth-api produces on it, mail-worker consumes it). */
export function mailQueueOf(app: RunningApp): Queue {
  return app.app.get<Queue>(getQueueToken(MAIL_QUEUE));
}

/** Resolves when each of `connections` (Bull's queue connections, say) has reached `status`, or is in it now. */
export async function connectionsReach(connections: Redis[], status: Redis['status']): Promise<void> {
  await Promise.all(connections.map((connection) => reachStatus(connection, status)));
}

/** Resolves when every Redis connection the app's mail queue has opened is ready again (after Redis came back). */
export function mailQueueConnected(app: RunningApp): Promise<void> {
  return connectionsReach(mailQueueOf(app).clients, 'ready');
}

/**
 * Records how each job of a queue ends, from the moment it is called: a test that starts a login
 * and then waits for its e-mail job cannot miss a job that finished before it started waiting.
 * Bull's events fire after the job's own work, its database writes included.
 */
export function watchJobs(queue: Queue): { settled(jobId: string): Promise<'completed' | 'failed'>; stop(): void } {
  const ended = new Map<string, 'completed' | 'failed'>();
  const waiting = new Map<string, (outcome: 'completed' | 'failed') => void>();
  const listener = (outcome: 'completed' | 'failed') => (job: { id: string | number }) => {
    const id = String(job.id);
    ended.set(id, outcome);
    waiting.get(id)?.(outcome);
  };
  const completed = listener('completed');
  const failed = listener('failed');
  queue.on('completed', completed);
  queue.on('failed', failed);
  return {
    settled: (jobId) => (ended.has(jobId) ? Promise.resolve(ended.get(jobId)!) : new Promise((resolve) => waiting.set(jobId, resolve))),
    stop: () => {
      queue.off('completed', completed);
      queue.off('failed', failed);
    },
  };
}

/** POST /v1/login_code as `app`. */
export function loginCode(authUrl: string, app: ApplicationFixture, loginAttemptId: string, code: string): request.Test {
  return request(authUrl).post(`${V1}/login_code`).set('Authorization', basicAuth(app)).send({ loginAttemptId, code });
}
