import { html } from '../pages/html';
import { renderPage, RenderedPage } from '../pages/layout';
import { clockTime } from '../login-page/login-page.pages';
import { ApprovalOutcome, ApprovalView } from './login-approval.service';
import { LinkDescription } from './login-link.service';

const STOPPED_HEADINGS: Record<Exclude<LinkDescription['state'], 'pending'>, string> = {
  used: 'This link was already used',
  expired: 'This link has expired',
  locked: 'This sign-in was stopped',
};

/** The page an e-mailed link opens: it shows the attempt and asks for a deliberate press. */
export function loginLinkPage(token: string, link: LinkDescription): RenderedPage {
  const form = (label: string) => html`
<form method="post" action="login_link">
<input type="hidden" name="token" value="${token}">
<button type="submit">${label}</button>
</form>`;
  // Two ways on; where Sesame can tell (the hosted page's cookie) the likely one comes first.
  const elsewhere = html`<a class="button" id="approve" href="login_link/approve?token=${token}">Sign in on the device where you asked</a>`;
  const here = form('Continue here');
  const ways = link.startedHere === false ? html`${elsewhere}${here}` : html`${here}${elsewhere}`;
  const body =
    link.state === 'pending'
      ? html`<h1>Sign in to ${link.organizationName}</h1>
<p>You are signing in to ${link.applicationName} as <strong>${link.email}</strong>. Check that this phrase matches the one the application showed you:</p>
<div class="phrase" id="sentence">${link.sentence}</div>
<p>Asked to sign in on this device? Continue here. Asked on another one, such as your computer? Sign in there from here.</p>
${ways}
<p class="fine">If you did not try to sign in, close this page. Nothing happens until you press a button.</p>`
      : html`<h1>${STOPPED_HEADINGS[link.state]}</h1>
<p>Sign-in links work once and only for a short time${link.state === 'locked' ? ', and stop after wrong codes or a wrong phrase' : ''}. Go back to ${link.applicationName} to get a new one.</p>
${form(`Back to ${link.applicationName}`)}`;
  return renderPage({ title: 'Sign in', brand: link.organizationName, body }, link.formTargets);
}

/** "Sign in on the device where you asked": where the request came from, and the phrase to pick out of three. */
export function approvalPage(token: string, view: ApprovalView): RenderedPage {
  if (view.state !== 'pending') {
    const body = html`<h1>${STOPPED_HEADINGS[view.state]}</h1>
<p>Go back to ${view.applicationName} to start again.</p>`;
    return renderPage({ title: 'Sign in', brand: view.organizationName, icon: 'alert', body });
  }
  const when = clockTime(view.requestedAt);
  const body = html`<h1>Sign in on the device where you asked</h1>
<p>Someone asked to sign in to ${view.applicationName} as <strong>${view.email}</strong>${view.requestedFrom ? html` from <strong id="requested-from">${view.requestedFrom}</strong>` : ''} at ${when} (UTC).</p>
<p>Which phrase does that screen show? Pick it to sign that device in. A wrong pick stops this sign-in.</p>
<form method="post" action="approve">
<input type="hidden" name="token" value="${token}">
<fieldset class="choices">
<legend>The phrase on the screen where you asked</legend>
${view.choices.map((choice, index) => html`<label class="choice"><input type="radio" name="sentence" value="${choice}" id="choice-${index}"> ${choice}</label>`)}
</fieldset>
<button type="submit">Sign that device in</button>
</form>
<p class="fine">If you did not ask to sign in anywhere, close this page: nothing happens.</p>`;
  return renderPage({ title: 'Sign in', brand: view.organizationName, body });
}

const APPROVAL_OUTCOMES: Record<ApprovalOutcome, { heading: string; text: string }> = {
  approved: { heading: 'The other device is now signed in', text: 'You can close this page and go on where you asked to sign in.' },
  wrong_sentence: { heading: 'This sign-in was stopped', text: 'The phrase did not match the one of this sign-in, so nobody was signed in. Start again on your device.' },
  used: { heading: STOPPED_HEADINGS.used, text: 'Nothing more to do here.' },
  expired: { heading: STOPPED_HEADINGS.expired, text: 'Start again on your device.' },
  locked: { heading: STOPPED_HEADINGS.locked, text: 'Start again on your device.' },
};

/** After the pick: never a redirect (this device is not the one signing in). */
export function approvalOutcomePage(outcome: ApprovalOutcome, organizationName: string | null): RenderedPage {
  const { heading, text } = APPROVAL_OUTCOMES[outcome];
  const body = html`<h1 id="outcome">${heading}</h1>
<p>${text}</p>`;
  return renderPage({ title: 'Sign in', brand: organizationName, icon: outcome === 'approved' ? undefined : 'alert', body });
}
