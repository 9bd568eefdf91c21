import { ClientContext } from '@sesame/entities';
import { clockTime, html } from '../pages/html';
import { renderPage, RenderedPage } from '../pages/layout';
import { fill, Locale, PAGE_STRINGS } from '../pages/locales';
import { PASSKEY_OFFER_SCRIPT, PASSKEY_PROBE_SCRIPT, PASSKEY_SIGN_IN_SCRIPT } from './passkey-scripts';
import { PASSKEY_STRINGS } from './passkey.strings';

export interface FormView {
  context: ClientContext;
  locale: Locale;
  hidden: Record<string, string>;
  csrf: string;
  email?: string;
  error?: string;
  /** Where the page's script asks for a passkey challenge and sends the answer; absent when the organization has passkeys off. */
  passkeys?: { optionsUrl: string; verifyUrl: string };
}

/**
 * The hosted sign-in form: one field, one button; with passkeys, the field's autofill also offers
 * saved passkeys and a second button asks for one (shown by the script where WebAuthn exists).
 */
export function signInForm(view: FormView): RenderedPage {
  const strings = PAGE_STRINGS[view.locale];
  const passkeyStrings = PASSKEY_STRINGS[view.locale];
  const names = { organization: view.context.organization.name, application: view.context.application.name };
  const passkeys = view.passkeys;
  const body = html`<h1>${fill(strings.heading, names)}</h1>
<p>${fill(strings.prompt, names)}</p>
<form method="post" action="authorize" novalidate${
    passkeys ? html` data-passkey-options="${passkeys.optionsUrl}" data-passkey-verify="${passkeys.verifyUrl}"` : ''
  }>
${Object.entries(view.hidden).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<input type="hidden" name="csrf" value="${view.csrf}">
<label for="email">${strings.emailLabel}</label>
<input type="email" id="email" name="email" autocomplete="${passkeys ? 'username webauthn' : 'email'}" inputmode="email" required autofocus value="${view.email ?? ''}"${
    view.error ? html` aria-invalid="true" aria-describedby="email-error"` : ''
  }>
${view.error ? html`<p class="error" id="email-error" role="alert">${view.error}</p>` : ''}
<button type="submit">${strings.submit}</button>
</form>
${
  passkeys
    ? html`<div id="passkey-choice" class="passkey-choice" hidden>
<p class="or">${passkeyStrings.or}</p>
<button type="button" id="passkey-sign-in" class="secondary">${passkeyStrings.signIn}</button>
<p class="error" id="passkey-error" role="alert" hidden>${passkeyStrings.signInFailed}</p>
</div>`
    : ''
}`;
  return renderPage(
    { title: strings.title, brand: view.context.organization.name, body, script: passkeys ? PASSKEY_SIGN_IN_SCRIPT : undefined },
    [],
    view.locale,
  );
}

export interface OfferView {
  context: ClientContext;
  locale: Locale;
  /** Where the login goes on: redirect_uri with code and state, or an autologin walk's first stop. */
  continueUrl: string;
  registrationId: string;
  csrf: string;
  optionsUrl: string;
  verifyUrl: string;
  /** False when the organization requires a passkey: no way around the offer. */
  skippable: boolean;
  /** The cookie "Not now" sets, as document.cookie takes it. */
  skipCookie: string;
}

/** After an e-mailed login: "Use a passkey next time", with one-click "Not now" unless the organization requires one. */
export function passkeyOffer(view: OfferView): RenderedPage {
  const strings = PASSKEY_STRINGS[view.locale];
  const names = { organization: view.context.organization.name };
  const body = html`<h1>${strings.offerHeading}</h1>
<p>${fill(strings.offerBody, names)}</p>
${view.skippable ? '' : html`<p class="hint">${fill(strings.offerRequired, names)}</p>`}
<div id="passkey-offer" data-client-id="${view.context.application.clientId}" data-registration="${view.registrationId}" data-csrf="${view.csrf}" data-options-url="${view.optionsUrl}" data-verify-url="${view.verifyUrl}" data-continue-url="${view.continueUrl}" data-skip-cookie="${view.skipCookie}">
<button type="button" id="passkey-create">${strings.create}</button>
${view.skippable ? html`<a class="button secondary" id="passkey-skip" href="${view.continueUrl}">${strings.skip}</a>` : ''}
<p class="error" id="passkey-error" role="alert" hidden>${strings.createFailed}</p>
<p id="passkey-done" role="status" hidden>${strings.created}</p>
</div>`;
  return renderPage(
    { title: strings.offerTitle, brand: view.context.organization.name, icon: 'key', body, script: PASSKEY_OFFER_SCRIPT },
    [],
    view.locale,
  );
}

export interface CodeFormView {
  /** Path-absolute: the page is shown both at …/authorize and, after a wrong code, at …/authorize/code. */
  action: string;
  hidden: Record<string, string>;
  csrf: string;
  loginAttemptId: string;
  redirectUri: string;
}

export interface SentView {
  context: ClientContext;
  locale: Locale;
  email: string;
  sentence: string;
  /** Shown here only: typed on another device, it signs this browser in. */
  approvalNumber: string;
  minutes: number;
  allowedDate: Date;
  /** The code form: the request's parameters, the CSRF value and the attempt it signs in. */
  codeForm: CodeFormView;
  /** Where the page goes on by itself: collects an approval made on another device, or shows the outcome. */
  statusUrl: string;
  /** What the page's script waits on (a held GET answering the attempt's status when it changes). */
  watchUrl: string;
  error?: string;
  /** Whether the page tells Sesame this browser can make a passkey (so the login may offer one). */
  probePasskeys?: boolean;
}

/**
 * How the "check your inbox" page goes on by itself: in the background it waits on the attempt's
 * status (held requests), and once it is no longer pending it goes to the status URL, which signs
 * in or shows the outcome. It never reloads while pending: a reload would wipe a code being typed
 * or cancel the code form on its way. Without scripts a meta refresh reloads into the status URL.
 */
export const WAIT_SCRIPT = `(function () {
  var form = document.getElementById('code').form;
  var leaving = false;
  form.addEventListener('submit', function () { leaving = true; });
  function goOn() { if (!leaving) location.replace(form.dataset.statusUrl); }
  function watch() {
    var asked = Date.now();
    // A wait that answered at once (Redis away) is asked again after a pause, not in a tight loop.
    function again() { setTimeout(watch, Date.now() - asked < 1000 ? 3000 : 0); }
    fetch(form.dataset.watchUrl, { headers: { accept: 'application/json' } })
      .then(function (response) { return response.ok ? response.json() : { status: 'unknown' }; })
      .then(function (answer) { if (answer.status === 'pending') again(); else goOn(); }, function () { setTimeout(watch, 3000); });
  }
  watch();
})();`;

/**
 * After the form: where the link went, the phrase the e-mail and its page show, the approval number
 * to type on another device, and a field for the e-mail's code.
 */
export function checkInbox(view: SentView): RenderedPage {
  const strings = PAGE_STRINGS[view.locale];
  const [beforeEmail, afterEmail = ''] = strings.sentBody.split('{email}');
  const form = view.codeForm;
  const body = html`<noscript><meta http-equiv="refresh" content="3;url=${view.statusUrl}"></noscript>
<h1>${strings.sentHeading}</h1>
<p>${beforeEmail}<strong>${view.email}</strong>${afterEmail}</p>
<div class="phrase" id="sentence">${view.sentence}</div>
<div class="approval"><p>${strings.approvalNumber}</p><strong id="approval-number">${view.approvalNumber}</strong></div>
<form method="post" action="${form.action}" novalidate data-status-url="${view.statusUrl}" data-watch-url="${view.watchUrl}">
${Object.entries(form.hidden).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<input type="hidden" name="csrf" value="${form.csrf}">
<input type="hidden" name="login_attempt_id" value="${form.loginAttemptId}">
<label for="code">${strings.codeLabel}</label>
<input type="text" id="code" name="code" class="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="7" required${
    view.error ? html` aria-invalid="true" aria-describedby="code-error"` : ''
  }>
${view.error ? html`<p class="error" id="code-error" role="alert">${view.error}</p>` : ''}
<button type="submit">${strings.codeSubmit}</button>
</form>
<p>${fill(strings.sentExpiry, { minutes: view.minutes })}</p>
<p class="fine">${fill(strings.sentAgain, { time: clockTime(view.allowedDate) })}</p>`;
  // The code form ends on the application's redirect_uri.
  return renderPage(
    {
      title: strings.sentHeading,
      brand: view.context.organization.name,
      icon: 'mail',
      body,
      script: view.probePasskeys ? `${WAIT_SCRIPT}\n${PASSKEY_PROBE_SCRIPT}` : WAIT_SCRIPT,
    },
    [form.redirectUri],
    view.locale,
  );
}
