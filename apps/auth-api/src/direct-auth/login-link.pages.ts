import { html } from '../pages/html';
import { renderPage, RenderedPage } from '../pages/layout';
import { LinkDescription } from './login-link.service';

const STOPPED_HEADINGS: Record<Exclude<LinkDescription['state'], 'pending'>, string> = {
  used: 'This link was already used',
  expired: 'This link has expired',
  locked: 'This sign-in was stopped: too many wrong codes',
};

/** The page an e-mailed link opens: it shows the attempt and asks for a deliberate press. */
export function loginLinkPage(token: string, link: LinkDescription): RenderedPage {
  const form = (label: string) => html`
<form method="post" action="login_link">
<input type="hidden" name="token" value="${token}">
<button type="submit">${label}</button>
</form>`;
  const body =
    link.state === 'pending'
      ? html`<h1>Sign in to ${link.organizationName}</h1>
<p>You are signing in to ${link.applicationName} as <strong>${link.email}</strong>. Check that this phrase matches the one the application showed you:</p>
<div class="phrase" id="sentence">${link.sentence}</div>
${form('Continue')}
<p class="fine">If you did not try to sign in, close this page. Nothing happens until you press Continue.</p>`
      : html`<h1>${STOPPED_HEADINGS[link.state]}</h1>
<p>Sign-in links work once and only for a short time. Go back to ${link.applicationName} to get a new one.</p>
${form(`Back to ${link.applicationName}`)}`;
  return renderPage({ title: 'Sign in', brand: link.organizationName, body }, link.formTargets);
}
