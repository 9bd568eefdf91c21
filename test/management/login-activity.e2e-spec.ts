import { randomUUID } from 'node:crypto';
import { LOGIN_ATTEMPT_STATUSES } from '@sesame/entities';
import { Stack, startStack } from '../support/apps';
import { authenticateDirect, mailQueueOf, NO_SWEEPS, tokenIn, useLink, watchJobs } from '../support/direct-auth';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { uniqueEmail } from '../support/login';
import { call, createUser, expectProblem, UNTHROTTLED_ENV, validationProblem } from '../support/management';
import { SmtpSink } from '../support/smtp-sink';

/** Resolves when the worker has finished the job of an attempt (Bull's events fire after the job's own work, its database writes included). */

/** GET /v2/organization/{id}/login_attempt: every login attempt and what became of its e-mail. */
describe('login activity', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let app: ApplicationFixture;
  let jobs: ReturnType<typeof watchJobs>;

  beforeAll(async () => {
    await smtp.start();
    // One delivery attempt: an SMTP refusal is final at once.
    stack = await startStack(smtp.url, { env: { ...UNTHROTTLED_ENV, ...NO_SWEEPS, MAIL_ATTEMPTS: '1' } });
    const organization = await createOrganization(stack.management.url, await createTenant(stack.management.url, 'pro'));
    app = await createApplication(stack.management.url, organization, { type: 'web', name: 'Shop' });
    jobs = watchJobs(mailQueueOf(stack.worker));
  });
  afterAll(async () => {
    jobs?.stop();
    await stack?.close();
    await smtp.stop();
  });

  async function login(email: string, event: 'completed' | 'failed'): Promise<string> {
    const started = await authenticateDirect(stack.auth.url, app, {
      email,
      redirect_uri: 'http://localhost:4000/callback',
      state: 's',
    }).expect(200);
    expect(await jobs.settled(started.body.loginAttemptId)).toBe(event);
    return started.body.loginAttemptId;
  }

  const activity = (filters: Record<string, string> = {}) =>
    call(stack.management.url, 'get', `/organization/${app.organizationId}/login_attempt`, app.apiKey).query(filters).expect(200);

  it('shows each attempt newest first with its e-mail sent, failed (SMTP refusing) or suppressed, and when it completed', async () => {
    const delivered = uniqueEmail('delivered');
    const sentId = await login(delivered, 'completed');
    const link = tokenIn(await smtp.next(delivered));

    smtp.refuseNext(1);
    const refused = uniqueEmail('refused');
    const failedId = await login(refused, 'failed');

    const blocked = uniqueEmail('blocked');
    await createUser(stack.management.url, app, { email: blocked, blocked: true });
    const suppressedId = await login(blocked, 'completed');

    await useLink(stack.auth.url, link).expect(303);

    const page = (await activity()).body;
    expect(page.nextCursor).toBeNull();
    expect(page.data.map((item: { id: string }) => item.id)).toEqual([suppressedId, failedId, sentId]);
    const [suppressed, failed, sent] = page.data;
    const common = {
      applicationId: app.applicationId,
      applicationName: 'Shop',
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
    };
    expect(sent).toEqual({
      ...common,
      id: sentId,
      email: delivered,
      status: 'completed',
      mail: 'sent',
      mailQueuedAt: expect.any(String),
      mailSentAt: expect.any(String),
      mailFailedAt: null,
      completedAt: expect.any(String),
      method: 'email',
    });
    expect(failed).toEqual({
      ...common,
      id: failedId,
      email: refused,
      status: 'pending',
      mail: 'failed',
      mailQueuedAt: expect.any(String),
      mailSentAt: null,
      mailFailedAt: expect.any(String),
      completedAt: null,
      method: 'email',
    });
    expect(suppressed).toEqual(
      expect.objectContaining({ id: suppressedId, email: blocked, mail: 'suppressed', mailSentAt: null, mailFailedAt: null }),
    );
    expect(smtp.pending(refused)).toEqual([]);
  });

  it('filters by e-mail, application, status and time, page by page', async () => {
    const email = uniqueEmail('filtered');
    const id = await login(email, 'completed');
    await smtp.next(email);
    const ids = async (filters: Record<string, string>) => (await activity(filters)).body.data.map((item: { id: string }) => item.id);
    expect(await ids({ email: email.toUpperCase() })).toEqual([id]);
    expect(await ids({ status: 'completed' })).not.toContain(id);
    expect(await ids({ status: 'pending', email })).toEqual([id]);
    expect(await ids({ applicationId: randomUUID() })).toEqual([]);
    expect(await ids({ applicationId: app.applicationId, email })).toEqual([id]);
    expect(await ids({ to: '2000-01-01T00:00:00Z' })).toEqual([]);
    expect(await ids({ from: new Date(Date.now() - 60_000).toISOString(), email })).toEqual([id]);

    const all = await ids({ limit: '100' });
    const first = (await activity({ limit: '2' })).body;
    const second = (await activity({ limit: '2', cursor: first.nextCursor })).body;
    expect([...first.data, ...second.data].map((item: { id: string }) => item.id)).toEqual(all.slice(0, 4));

    expectProblem(
      await call(stack.management.url, 'get', `/organization/${app.organizationId}/login_attempt`, app.apiKey).query({ status: 'lost' }),
      validationProblem([
        { field: 'status', messages: [`status must be one of the following values: ${LOGIN_ATTEMPT_STATUSES.join(', ')}`] },
      ]),
    );
  });
});
