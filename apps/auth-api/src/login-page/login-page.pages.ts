import { ClientContext } from '../clients/client-context.repository';
import { html } from '../pages/html';
import { renderPage, RenderedPage } from '../pages/layout';
import { fill, Locale, PAGE_STRINGS } from './locales';

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

export interface SentView {
  context: ClientContext;
  locale: Locale;
  email: string;
  sentence: string;
  minutes: number;
  allowedDate: Date;
}

/** After the form: where the link went and the phrase the link page will show. */
export function checkInbox(view: SentView): RenderedPage {
  const strings = PAGE_STRINGS[view.locale];
  const [beforeEmail, afterEmail = ''] = strings.sentBody.split('{email}');
  const body = html`<h1>${strings.sentHeading}</h1>
<p>${beforeEmail}<strong>${view.email}</strong>${afterEmail}</p>
<div class="phrase" id="sentence">${view.sentence}</div>
<p>${fill(strings.sentExpiry, { minutes: view.minutes })}</p>
<p class="fine">${fill(strings.sentAgain, { time: clockTime(view.allowedDate) })}</p>`;
  return renderPage({ title: strings.sentHeading, brand: view.context.organization.name, icon: 'mail', body }, [], view.locale);
}

export function clockTime(date: Date): string {
  return date.toISOString().slice(11, 19);
}
