import { ClientContext } from '@sesame/entities';
import { clockTime, html } from '../pages/html';
import { renderPage, RenderedPage } from '../pages/layout';
import { fill, Locale, PAGE_STRINGS } from '../pages/locales';

export interface FormView {
  context: ClientContext;
  locale: Locale;
  hidden: Record<string, string>;
  csrf: string;
  email?: string;
  error?: string;
}

/** The hosted sign-in form: one field, one button. */
export function signInForm(view: FormView): RenderedPage {
  const strings = PAGE_STRINGS[view.locale];
  const names = { organization: view.context.organization.name, application: view.context.application.name };
  const body = html`<h1>${fill(strings.heading, names)}</h1>
<p>${fill(strings.prompt, names)}</p>
<form method="post" action="authorize" novalidate>
${Object.entries(view.hidden).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<input type="hidden" name="csrf" value="${view.csrf}">
<label for="email">${strings.emailLabel}</label>
<input type="email" id="email" name="email" autocomplete="email" inputmode="email" required autofocus value="${view.email ?? ''}"${
    view.error ? html` aria-invalid="true" aria-describedby="email-error"` : ''
  }>
${view.error ? html`<p class="error" id="email-error" role="alert">${view.error}</p>` : ''}
<button type="submit">${strings.submit}</button>
</form>`;
  return renderPage({ title: strings.title, brand: view.context.organization.name, body }, [], view.locale);
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
  /** Where the page goes on by itself (a held GET answering when the link is approved on another device). */
  refreshUrl: string;
  error?: string;
}

/**
 * After the form: where the link went, the phrase the e-mail and its page show, the approval number
 * to type on another device, and a field for the e-mail's code.
 */
export function checkInbox(view: SentView): RenderedPage {
  const strings = PAGE_STRINGS[view.locale];
  const [beforeEmail, afterEmail = ''] = strings.sentBody.split('{email}');
  const form = view.codeForm;
  // No script runs on Sesame's pages (CSP): the page reloads itself into a request that waits for the approval.
  const body = html`<meta http-equiv="refresh" content="3;url=${view.refreshUrl}">
<h1>${strings.sentHeading}</h1>
<p>${beforeEmail}<strong>${view.email}</strong>${afterEmail}</p>
<div class="phrase" id="sentence">${view.sentence}</div>
<div class="approval"><p>${strings.approvalNumber}</p><strong id="approval-number">${view.approvalNumber}</strong></div>
<form method="post" action="${form.action}" novalidate>
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
    { title: strings.sentHeading, brand: view.context.organization.name, icon: 'mail', body },
    [form.redirectUri],
    view.locale,
  );
}
