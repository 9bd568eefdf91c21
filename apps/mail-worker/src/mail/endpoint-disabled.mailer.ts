import { Inject, Injectable, Logger } from '@nestjs/common';
import { SESAME_CONFIG, SesameConfig } from '@sesame/common';
import { TenantMemberRepository, WebhookEndpointRepository } from '@sesame/entities';
import { EndpointDisabledTemplates } from './endpoint-disabled.templates';
import { SmtpTransport } from './smtp-transport';

/** Tells each owner of the tenant that Sesame disabled one of its webhook endpoints. An endpoint enabled again before the job runs gets no mail. */
@Injectable()
export class EndpointDisabledMailer {
  private readonly logger = new Logger(EndpointDisabledMailer.name);
  private readonly templates = new EndpointDisabledTemplates();

  constructor(
    private readonly endpoints: WebhookEndpointRepository,
    private readonly members: TenantMemberRepository,
    private readonly mailer: SmtpTransport,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  async deliver(endpointId: string): Promise<'sent' | 'skipped'> {
    const notice = await this.endpoints.findDisabledNotice(endpointId);
    if (!notice) return 'skipped';
    const mail = this.templates.render({
      tenant: notice.tenantName,
      url: notice.url,
      failingSince: notice.failingSince,
      link: `${this.config.console.publicUrl}/`,
    });
    // One e-mail each: owners need not see each other's addresses. A retry may send some twice.
    for (const owner of await this.members.ownerAddresses(notice.tenantId))
      await this.mailer.sendMail({ to: owner, from: this.config.mail.from, ...mail });
    this.logger.log(`Told the owners that webhook endpoint ${endpointId} was disabled`);
    return 'sent';
  }
}
