import { Injectable } from '@nestjs/common';
import { allowedRedirect, ApprovalNumbers, normalizeEmail, Plan, problem } from '@sesame/common';
import { ClientPrincipal } from '@sesame/guards';
import { ClientContexts } from '../clients/client-contexts';
import { AuthenticateDirectDto } from './dto/authenticate-direct.dto';
import { LoginAttemptResponse } from './dto/login-attempt.response';
import { LoginAttemptService } from './login-attempt.service';

const DIRECT_AUTH_PLANS: readonly Plan[] = ['pro', 'enterprise'];

/** POST /v1/authenticate_direct: a web application asks for a login link to be e-mailed. */
@Injectable()
export class DirectAuthService {
  constructor(
    private readonly contexts: ClientContexts,
    private readonly attempts: LoginAttemptService,
    private readonly numbers: ApprovalNumbers,
  ) {}

  async authenticate(client: ClientPrincipal, input: AuthenticateDirectDto, requestId: string | null): Promise<LoginAttemptResponse> {
    if (client.type !== 'web') throw problem('unauthorized_client', 'Direct authentication is available to web applications only');
    if (!DIRECT_AUTH_PLANS.includes(client.plan)) {
      throw problem('plan_not_supported', 'Direct authentication is available on the Pro and Enterprise plans only');
    }
    const context = await this.contexts.find(client.applicationId);
    if (!context) throw problem('unauthorized_client', 'The application no longer exists');
    const email = normalizeEmail(input.email);
    if (!email) throw problem('invalid_request', 'email must be a valid e-mail address');
    if (!allowedRedirect({ ...context.application, whitelistDomains: context.organization.whitelistDomains }, input.redirect_uri)) {
      throw problem(
        'invalid_request',
        'redirect_uri is not allowed for this application: its origin must be a whitelist domain (and it must equal a registered callback URL, if any)',
      );
    }

    const started = await this.attempts.start({
      applicationId: client.applicationId,
      organizationId: client.organizationId,
      email,
      redirectUri: input.redirect_uri,
      state: input.state,
      codeChallenge: input.code_challenge ?? null,
      nonce: input.nonce ?? null,
      flow: 'direct',
      translations: input.translations ? { ...input.translations } : null,
      linkTtlSeconds: context.organization.linkTtlSeconds,
      requestId,
      userAgent: input.userAgent ?? null,
      ip: input.userIp ?? null,
      browserHash: null,
      approvalNumber: this.numbers.draw(),
    });
    return {
      loginAttemptId: started.loginAttemptId,
      token: started.tokenHash.toString('hex'),
      sentence: started.sentence,
      approvalNumber: started.approvalNumber,
      allowedDate: started.allowedDate.toISOString(),
    };
  }
}
