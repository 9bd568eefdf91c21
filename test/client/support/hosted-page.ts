import { linkIn, SmtpSink } from '../../support/smtp-sink';
import { hiddenFields } from '../../support/hosted-login';

/**
 * Plays the user's part of the hosted login page over HTTP, as the browser of a phone would: opens
 * the page (keeping its CSRF cookie), submits the e-mail address with the form's hidden fields,
 * takes the link from the SMTP sink, presses Continue, and returns where Sesame redirects to.
 */
export async function completeHostedLogin(authorizeUrl: string, smtp: SmtpSink, email: string): Promise<string> {
  await submitHostedForm(authorizeUrl, email);
  return pressContinue(linkIn(await smtp.next(email)));
}

/** Opens the hosted page and submits the address; Sesame then e-mails the link. */
export async function submitHostedForm(authorizeUrl: string, email: string): Promise<void> {
  const page = await fetch(authorizeUrl, { redirect: 'manual' });
  if (page.status !== 200) throw new Error(`The hosted page answered ${page.status}: ${await page.text()}`);
  const cookie = page.headers
    .getSetCookie()
    .map((value) => value.split(';')[0])
    .join('; ');
  const fields = hiddenFields(await page.text());
  const submitted = await fetch(new URL('authorize', authorizeUrl).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ ...fields, email }).toString(),
    redirect: 'manual',
  });
  if (submitted.status !== 200) throw new Error(`Submitting the form answered ${submitted.status}`);
}

/** POSTs the link page's form (its Continue button) and returns the redirect target. */
export async function pressContinue(link: string): Promise<string> {
  const url = new URL(link);
  const answer = await fetch(new URL('login_link', url).href, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: url.searchParams.get('token')! }).toString(),
    redirect: 'manual',
  });
  if (answer.status !== 303) throw new Error(`Continue answered ${answer.status}`);
  return answer.headers.get('location')!;
}
