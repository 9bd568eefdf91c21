import { ManualClock } from '@sesame/common';
import { startStack, Stack } from '../support/apps';
import { authenticateDirect, expectOAuthError, loginCode, NO_SWEEPS, query, tokenIn, useLink } from '../support/direct-auth';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../support/fixtures';
import { uniqueEmail } from '../support/login';
import { codeIn, SmtpSink } from '../support/smtp-sink';
import { WEB_REDIRECT_URI } from '../support/tokens';

/** A code other than `code` (same length, every digit changed). */
const wrong = (code: string) => code.replace(/\d/g, (digit) => String((Number(digit) + 1) % 10));

/** Past any allowedDate (the backoff is capped at 15 minutes), in seconds. */
const PAST_BACKOFF_SECONDS = 16 * 60;

/**
 * Wrong codes are counted per address across attempts: five lock one attempt, but a new attempt
 * would give five more guesses. Ten wrong codes for an address within 24 hours disable its codes
 * (`login_code_disabled`) until one of its links is used; links keep working. The clock is a
 * ManualClock shared by the apps, so attempts follow each other past their allowedDate.
 */
describe('wrong codes counted per address across attempts', () => {
  const smtp = new SmtpSink();
  const clock = new ManualClock(new Date('2032-05-01T08:00:00.000Z'));
  let stack: Stack;
  let app: ApplicationFixture;

  /** A new attempt for the address, later than its allowedDate. */
  async function start(email: string) {
    clock.advance(PAST_BACKOFF_SECONDS);
    const started = await authenticateDirect(stack.auth.url, app, { email, redirect_uri: WEB_REDIRECT_URI, state: 'limit-state' }).expect(
      200,
    );
    const mail = await smtp.next(email);
    return { loginAttemptId: started.body.loginAttemptId as string, code: codeIn(mail), token: tokenIn(mail) };
  }

  /** `count` wrong codes on one attempt (fewer than the five that lock it). */
  async function wrongCodes(attempt: { loginAttemptId: string; code: string }, count: number): Promise<void> {
    for (let index = 0; index < count; index++)
      expectOAuthError(await loginCode(stack.auth.url, app, attempt.loginAttemptId, wrong(attempt.code)), 400, 'invalid_login_code');
  }

  beforeAll(async () => {
    await smtp.start();
    stack = await startStack(smtp.url, { clock, env: NO_SWEEPS });
    const tenant = await createTenant(stack.management.url, 'pro');
    const organization = await createOrganization(stack.management.url, tenant, { whitelistDomains: ['http://localhost:4000'] });
    app = await createApplication(stack.management.url, organization, { type: 'web' });
  });

  afterAll(async () => {
    await stack.close();
    await smtp.stop();
  });

  it('ten wrong codes over several attempts disable the right code of a new attempt; its link works, and enables codes again', async () => {
    const email = uniqueEmail('sprayed');
    await wrongCodes(await start(email), 4);
    await wrongCodes(await start(email), 4);
    const third = await start(email);
    await wrongCodes(third, 1);
    // The tenth wrong code is answered as wrong; from then on every code of the address is refused.
    expectOAuthError(await loginCode(stack.auth.url, app, third.loginAttemptId, wrong(third.code)), 400, 'invalid_login_code');
    expectOAuthError(await loginCode(stack.auth.url, app, third.loginAttemptId, third.code), 400, 'login_code_disabled');

    const fresh = await start(email);
    const refused = await loginCode(stack.auth.url, app, fresh.loginAttemptId, fresh.code);
    expectOAuthError(refused, 400, 'login_code_disabled');
    expect(refused.body.error_description).not.toMatch(/user|account|exist/i);
    // The refusal used nothing up: the attempt is pending, and its link signs in.
    const [row] = await query<{ status: string; code_failures: number }>('SELECT status, code_failures FROM login_attempt WHERE id = $1', [
      fresh.loginAttemptId,
    ]);
    expect(row).toEqual({ status: 'pending', code_failures: 0 });
    const link = await useLink(stack.auth.url, fresh.token).expect(303);
    expect(new URL(link.headers.location).searchParams.get('code')).toEqual(expect.any(String));

    const afterLink = await start(email);
    await loginCode(stack.auth.url, app, afterLink.loginAttemptId, afterLink.code).expect(200);
  });

  it('disables codes alike for an address that never signed in and for one that did (no enumeration)', async () => {
    const known = uniqueEmail('known');
    const unknown = uniqueEmail('unknown');
    await useLink(stack.auth.url, (await start(known)).token).expect(303);
    const answers = [];
    for (const email of [known, unknown]) {
      for (let round = 0; round < 2; round++) await wrongCodes(await start(email), 4);
      const last = await start(email);
      await wrongCodes(last, 2);
      answers.push((await loginCode(stack.auth.url, app, last.loginAttemptId, last.code)).body);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0].error).toBe('login_code_disabled');
  });

  it('counts only the last 24 hours: nine old wrong codes and one new leave the codes working', async () => {
    const email = uniqueEmail('slow');
    await wrongCodes(await start(email), 4);
    await wrongCodes(await start(email), 4);
    await wrongCodes(await start(email), 1);
    clock.advance(24 * 3600);
    const later = await start(email);
    await wrongCodes(later, 1);
    await loginCode(stack.auth.url, app, later.loginAttemptId, later.code).expect(200);
  });
});
