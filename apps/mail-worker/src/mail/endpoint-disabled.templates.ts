import { compileTemplate } from './mail-template';

export interface EndpointDisabledMessage {
  tenant: string;
  url: string;
  /** When its tries began to fail. */
  failingSince: Date;
  /** The console's address. */
  link: string;
}

/** The e-mail to a tenant's owners when Sesame disables a webhook endpoint whose every try failed for days. */
export class EndpointDisabledTemplates {
  private readonly html = compileTemplate('endpoint-disabled.html.hbs');
  private readonly text = compileTemplate('endpoint-disabled.text.hbs');

  render(message: EndpointDisabledMessage): { subject: string; html: string; text: string } {
    const subject = `A webhook endpoint of ${message.tenant} was disabled`;
    const since = message.failingSince.toISOString().slice(0, 16).replace('T', ' ');
    const intro = `Every delivery to ${message.url} has failed since ${since} UTC, so Sesame stopped sending events to it.`;
    const fix =
      'Once the endpoint answers again, enable it in the console: the events that waited are sent, and failed deliveries can be redelivered.';
    const context = { subject, intro, fix, link: message.link };
    return { subject, html: this.html(context), text: this.text(context) };
  }
}
