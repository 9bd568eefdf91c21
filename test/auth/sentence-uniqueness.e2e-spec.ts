import request from 'supertest';
import { generateSentence } from '../../apps/auth-api/src/direct-auth/sentence';
import { startStack, Stack } from '../support/apps';
import { attemptsOf, authenticateDirect, expectOAuthError, query, tokenIn, useLink } from '../support/direct-auth';
import { uniqueEmail } from '../support/login';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { SmtpSink } from '../support/smtp-sink';

// The phrase generator, made predictable so collisions can be forced (the real one draws from 2^30+).
jest.mock('../../apps/auth-api/src/direct-auth/sentence', () => {
  const actual = jest.requireActual('../../apps/auth-api/src/direct-auth/sentence');
  return { ...actual, generateSentence: jest.fn(actual.generateSentence) };
});
const nextSentences = (...sentences: string[]) => {
  for (const sentence of sentences) (generateSentence as jest.Mock).mockReturnValueOnce(sentence);
};

const REDIRECT_URI = 'http://localhost:4000/callback';

/** The sentence is unique among live attempts (all organizations), and shown in the e-mail and on the link page. */
describe('login attempt sentences', () => {
  const smtp = new SmtpSink();
  let stack: Stack;
  let app: ApplicationFixture;
  let otherOrganizationApp: ApplicationFixture;
  // Unique to this run, so attempts of other test files never hold them.
  const phrase = (label: string) => `${label} ${process.pid} ${Date.now()} phrase`;

  const start = (email: string, application = app) =>
    authenticateDirect(stack.auth.url, application, { email, redirect_uri: REDIRECT_URI, state: 'st' });

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url);
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    app = await createApplication(stack.management.url, organization, { type: 'web' });
    const otherOrganization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    otherOrganizationApp = await createApplication(stack.management.url, otherOrganization, { type: 'web' });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  it('a phrase held by a live attempt is not given to another one; once that attempt is used it is free again', async () => {
    const taken = phrase('Taken');
    const other = phrase('Other');
    const first = uniqueEmail('first');
    nextSentences(taken);
    const firstStarted = await start(first).expect(200);
    expect(firstStarted.body.sentence).toBe(taken);
    const firstMail = await smtp.next(first);
    expect(firstMail.text).toContain(taken);
    expect(firstMail.html).toContain(taken);
    const page = await request(stack.auth.url)
      .get('/api/v1/login_link')
      .query({ token: tokenIn(firstMail) })
      .expect(200);
    expect(page.text).toContain(taken);

    // Another address, even in another organization, draws again.
    const second = uniqueEmail('second');
    nextSentences(taken, taken, other);
    const secondStarted = await start(second, otherOrganizationApp).expect(200);
    expect(secondStarted.body.sentence).toBe(other);
    expect((await smtp.next(second)).text).toContain(other);

    await useLink(stack.auth.url, tokenIn(firstMail)).expect(303);
    const third = uniqueEmail('third');
    nextSentences(taken);
    const thirdStarted = await start(third).expect(200);
    expect(thirdStarted.body.sentence).toBe(taken);
    expect((await smtp.next(third)).text).toContain(taken);
  });

  it('when no free phrase is found the request fails as a server error and records nothing', async () => {
    const held = phrase('Held');
    nextSentences(held);
    await start(uniqueEmail('holder')).expect(200);
    const email = uniqueEmail('unlucky');
    nextSentences(held, held, held, held, held);
    const response = await start(email);
    expectOAuthError(response, 500, 'server_error');
    expect(await attemptsOf(app.applicationId, email)).toEqual([]);
    expect(await query('SELECT * FROM email_throttle WHERE organization_id = $1 AND email = $2', [app.organizationId, email])).toEqual([]);
    // The address is not locked out by the failure.
    await start(email).expect(200);
  });
});
