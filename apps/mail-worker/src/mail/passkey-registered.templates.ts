import { compileTemplate } from './mail-template';

export interface PasskeyRegisteredMessage {
  organization: string;
  /** The passkey's name: the browser and system it was created in ("Chrome on macOS"). */
  name: string;
  createdAt: Date;
  /** The address it was registered from, when known. */
  ip: string | null;
}

/**
 * The e-mail to a user when a passkey is added to their sign-in: an e-mailed login (a link, a code
 * read out, an approval) can be turned into lasting passkey access in someone else's browser, so
 * the user hears of every new passkey and can have it removed.
 */
export class PasskeyRegisteredTemplates {
  private readonly html = compileTemplate('passkey-registered.html.hbs');
  private readonly text = compileTemplate('passkey-registered.text.hbs');

  render(message: PasskeyRegisteredMessage): { subject: string; html: string; text: string } {
    const subject = `A passkey was added to your ${message.organization} sign-in`;
    const at = message.createdAt.toISOString().slice(0, 16).replace('T', ' ');
    const from = message.ip ? `from ${message.ip}` : 'from an unknown address';
    const intro = `A passkey was added to your ${message.organization} sign-in: ${message.name}, on ${at} UTC, ${from}. It signs you in without an e-mail.`;
    const warning = `If this wasn't you, contact the administrators of ${message.organization} at once: they can remove the passkey. Never read a sign-in code out to anyone, or approve a sign-in you did not start.`;
    const fine = 'If it was you, there is nothing to do.';
    const context = { subject, intro, warning, fine };
    return { subject, html: this.html(context), text: this.text(context) };
  }
}
