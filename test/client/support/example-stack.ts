import { startStack, Stack } from '../../support/apps';
import { ApplicationFixture, createApplication, createOrganization, createTenant } from '../../support/fixtures';
import { SmtpSink } from '../../support/smtp-sink';
import { ExampleServer } from './example-server';
import { silentLogger } from './silent';

/**
 * The real Sesame with its SMTP sink, and the example app (examples/express-app) registered with it
 * as the web application "Acme Books web" of an organization that whitelists the app's origin.
 */
export class ExampleStack {
  readonly smtp = new SmtpSink();
  readonly example = new ExampleServer('localhost');
  readonly logger = silentLogger();
  private stack?: Stack;

  /** `organization`: fields of the organization beyond its name and whitelist (a link lifetime, say). */
  async start(organization: Record<string, unknown> = {}): Promise<{ stack: Stack; app: ApplicationFixture }> {
    await this.smtp.start();
    await this.example.listen();
    const stack = await startStack(this.smtp.url);
    this.stack = stack;
    const management = stack.management.url;
    const tenant = await createTenant(management, 'pro');
    const acme = await createOrganization(management, tenant, {
      name: 'Acme Books',
      whitelistDomains: [this.example.origin],
      ...organization,
    });
    const app = await createApplication(management, acme, {
      type: 'web',
      name: 'Acme Books web',
      callbackUrls: [`${this.example.origin}/callback`],
    });
    this.example.start({
      sesameUrl: stack.auth.config.http.publicBaseUrl,
      clientId: app.clientId,
      clientSecret: app.clientSecret!,
      appName: 'Acme Books',
      logger: this.logger,
    });
    return { stack, app };
  }

  async close(): Promise<void> {
    await this.example.close();
    await this.stack?.close();
    await this.smtp.stop();
  }
}
