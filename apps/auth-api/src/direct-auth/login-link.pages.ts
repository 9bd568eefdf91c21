import { clockTime, fillHtml, html, SafeHtml } from '../pages/html';
import { renderPage, RenderedPage } from '../pages/layout';
import { Locale } from '../pages/locales';
import { ApprovalOutcome, ApprovalView } from './login-approval.service';
import { LINK_STRINGS } from './login-link.strings';
import { LinkDescription } from './login-link.service';

/**
 * In the browser that asked for the link: "Continue here" goes to the hosted page's own POST
 * (/v1/authorize/link), which may offer a passkey, when the browser can make one. Without a
 * platform authenticator, or without scripts, the form posts to the link as everywhere else.
 */
const PASSKEY_PROBE_SCRIPT = `(function () {
  var P = window.PublicKeyCredential;
  if (!P || !P.isUserVerifyingPlatformAuthenticatorAvailable) return;
  P.isUserVerifyingPlatformAuthenticatorAvailable().then(function (available) {
    if (available) document.getElementById('continue-here').action = 'authorize/link';
  }, function () {});
})();`;

const strong = (value: string, id?: string) => (id ? html`<strong id="${id}">${value}</strong>` : html`<strong>${value}</strong>`);

/** The page an e-mailed link opens: it shows the attempt and asks for a deliberate press. */
export function loginLinkPage(token: string, link: LinkDescription, locale: Locale): RenderedPage {
  const strings = LINK_STRINGS[locale];
  const form = (label: SafeHtml | string, id = '') => html`
<form method="post" action="login_link"${id ? html` id="${id}"` : ''}>
<input type="hidden" name="token" value="${token}">
<button type="submit">${label}</button>
</form>`;
  // Two ways on; where Sesame can tell (the hosted page's cookie) the likely one comes first.
  const elsewhere = html`<a class="button" id="approve" href="login_link/approve?token=${token}">${strings.signInElsewhere}</a>`;
  const here = form(strings.continueHere, 'continue-here');
  const ways = !link.approvalOpen ? here : link.startedHere === false ? html`${elsewhere}${here}` : html`${here}${elsewhere}`;
  const names = { organization: link.organizationName, application: link.applicationName };
  const body =
    link.state === 'pending'
      ? html`<h1>${fillHtml(strings.heading, names)}</h1>
<p>${fillHtml(strings.signingInAs, { ...names, email: strong(link.email) })}</p>
<div class="phrase" id="sentence">${link.sentence}</div>
<p>${strings.twoWays}</p>
${ways}
<p class="fine">${strings.nothingHappens}</p>`
      : html`<h1>${strings.stopped[link.state]}</h1>
<p>${fillHtml(link.state === 'locked' ? strings.stoppedTextLocked : strings.stoppedText, names)}</p>
${form(fillHtml(strings.backTo, names))}`;
  const script = link.state === 'pending' && link.startedHere ? PASSKEY_PROBE_SCRIPT : undefined;
  return renderPage({ title: strings.title, brand: link.organizationName, body, script }, link.formTargets, locale);
}

/**
 * "Sign in on the device where you asked": what asked and from where, a plain warning, and a field
 * for the number only the requesting screen shows (never this page, nor the e-mail).
 */
export function approvalPage(token: string, view: ApprovalView, locale: Locale): RenderedPage {
  const strings = LINK_STRINGS[locale];
  const names = { application: view.applicationName };
  if (view.state !== 'pending' || !view.approvalOpen) {
    const heading = view.state === 'pending' ? strings.approvalEndedHeading : strings.stopped[view.state];
    const text = view.state === 'pending' ? strings.wrongNumberText : fillHtml(strings.startAgainAt, names);
    return renderPage(
      { title: strings.title, brand: view.organizationName, icon: 'alert', body: html`<h1>${heading}</h1>\n<p>${text}</p>` },
      [],
      locale,
    );
  }
  const body = html`<h1>${strings.signInElsewhere}</h1>
<p>${fillHtml(strings.requested, { ...names, email: strong(view.email) })}</p>
<dl class="request">
<dt>${strings.deviceLabel}</dt><dd id="requested-from">${view.requestedFrom ?? strings.unknown}</dd>
<dt>${strings.networkLabel}</dt><dd id="requested-ip">${view.requestedIp ?? strings.unknown}</dd>
<dt>${strings.timeLabel}</dt><dd id="requested-at">${clockTime(view.requestedAt)}</dd>
</dl>
<p class="warning" role="note">${strings.doNotApprove}</p>
<form method="post" action="approve" novalidate>
<input type="hidden" name="token" value="${token}">
<label for="number">${strings.numberLabel}</label>
<p class="hint" id="number-hint">${strings.numberHint}</p>
<input type="text" id="number" name="number" class="code" inputmode="numeric" autocomplete="off" pattern="[0-9]*" maxlength="2" required aria-describedby="number-hint">
<button type="submit">${strings.approve}</button>
</form>`;
  return renderPage({ title: strings.title, brand: view.organizationName, body }, [], locale);
}

/** After the number: never a redirect (this device is not the one signing in). */
export function approvalOutcomePage(outcome: ApprovalOutcome, organizationName: string | null, locale: Locale): RenderedPage {
  const strings = LINK_STRINGS[locale];
  const outcomes: Record<ApprovalOutcome, { heading: string; text: string }> = {
    approved: { heading: strings.approvedHeading, text: strings.approvedText },
    wrong_number: { heading: strings.wrongNumberHeading, text: strings.wrongNumberText },
    approval_ended: { heading: strings.approvalEndedHeading, text: strings.wrongNumberText },
    used: { heading: strings.stopped.used, text: strings.usedText },
    expired: { heading: strings.stopped.expired, text: strings.startAgainText },
    locked: { heading: strings.stopped.locked, text: strings.startAgainText },
  };
  const { heading, text } = outcomes[outcome];
  const body = html`<h1 id="outcome">${heading}</h1>
<p>${text}</p>`;
  return renderPage(
    { title: strings.title, brand: organizationName, icon: outcome === 'approved' ? undefined : 'alert', body },
    [],
    locale,
  );
}
