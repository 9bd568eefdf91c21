import { formatLoginCode } from '@sesame/common';
import { Translations } from '@sesame/entities';
import { compileTemplate } from './mail-template';

export type TranslationKey = keyof Translations;

/** English defaults; each can be replaced per request through `translations`. `{organization}` and `{minutes}` are filled in. */
export const DEFAULT_STRINGS: Required<Translations> = {
  subject: 'Your sign-in link for {organization}',
  greeting: 'Hello,',
  intro: 'Press the button below to sign in to {organization}. The page it opens shows this phrase, so you can check the request is yours:',
  button: 'Sign in',
  code: 'Or type this code where you asked to sign in:',
  expiry: 'The link expires in {minutes} minutes and works only once.',
  ignore: 'If you did not try to sign in, you can safely ignore this e-mail.',
};

export interface LoginLinkMessage {
  organization: string;
  sentence: string;
  link: string;
  /** The 6-digit code, printed "123 456". */
  code: string;
  minutes: number;
  translations: Translations | null;
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
}

/**
 * Renders the login e-mail's HTML and text parts from handlebars templates. Translations are
 * plain text: the HTML template escapes them, and they are values, never template source, so
 * they cannot change the link.
 */
export class LoginLinkTemplates {
  private readonly html = compileTemplate('login-link.html.hbs');
  private readonly text = compileTemplate('login-link.text.hbs');

  render(message: LoginLinkMessage): RenderedMail {
    const strings = Object.fromEntries(
      Object.entries(DEFAULT_STRINGS).map(([key, fallback]) => [
        key,
        fill(message.translations?.[key as TranslationKey] ?? fallback, message),
      ]),
    ) as Required<Translations>;
    const context = {
      ...strings,
      organization: message.organization,
      sentence: message.sentence,
      link: message.link,
      loginCode: formatLoginCode(message.code),
    };
    return { subject: strings.subject, html: this.html(context), text: this.text(context) };
  }
}

/** One pass with a replacer function: the values go in literally ("$&" in a name, or a placeholder in it, stays as it is). */
function fill(template: string, message: LoginLinkMessage): string {
  const values: Record<string, string> = { organization: message.organization, minutes: String(message.minutes) };
  return template.replace(/\{(organization|minutes)\}/g, (_, name: string) => values[name]);
}
