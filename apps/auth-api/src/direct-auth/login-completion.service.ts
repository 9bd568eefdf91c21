import { Injectable } from '@nestjs/common';
import { withQuery } from '@sesame/common';
import { ClaimedAttempt, EmailThrottleRepository, UserRepository } from '@sesame/entities';
import { EntityManager } from 'typeorm';
import { StoredRedirectCheck } from '../clients/stored-redirect-check';
import { AuthorizationCodeService } from '../tokens/authorization-code.service';
import { AutologinService, CompletedLogin } from './autologin.service';
import { LoginWebhookEvents } from './login-webhook-events';

/** A claimed attempt, completed: the code for its redirect_uri, or the first stop of an autologin walk. */
export type Completion =
  | {
      kind: 'code';
      code: string;
      state: string;
      redirectUri: string;
      url: string;
      organizationId: string;
      userId: string;
      attemptId: string;
    }
  | { kind: 'walk'; url: string; cookie: string; organizationId: string; userId: string; attemptId: string }
  | { kind: 'blocked'; url: string };

/**
 * What using an attempt does, whichever credential used it (its link or its code): the stored
 * redirect_uri is checked again, the user is created on first login (e-mail verified), the
 * address's backoff is reset, and a code bound to the attempt's PKCE challenge is issued.
 */
@Injectable()
export class LoginCompletionService {
  constructor(
    private readonly throttles: EmailThrottleRepository,
    private readonly users: UserRepository,
    private readonly codes: AuthorizationCodeService,
    private readonly autologin: AutologinService,
    private readonly redirects: StoredRedirectCheck,
    private readonly loginEvents: LoginWebhookEvents,
  ) {}

  /** In the transaction that claimed the attempt. A walk only starts where a browser follows it (`walk`). */
  async complete(manager: EntityManager, attempt: ClaimedAttempt, now: Date, options: { walk: boolean }): Promise<Completion> {
    await this.redirects.require(manager, attempt.applicationId, attempt.redirectUri);
    const user = await this.users.upsertSignedIn(manager, attempt.organizationId, attempt.email, now);
    if (!user) {
      await this.loginEvents.failed(manager, attempt, 'access_denied', now);
      return {
        kind: 'blocked',
        url: withQuery(attempt.redirectUri, { error: 'access_denied', error_description: 'This account is blocked', state: attempt.state }),
      };
    }
    await this.throttles.clear(manager, attempt.organizationId, attempt.email);
    await this.loginEvents.signedIn(manager, attempt, user, now);
    const login: CompletedLogin = {
      attemptId: attempt.id,
      applicationId: attempt.applicationId,
      userId: user.id,
      redirectUri: attempt.redirectUri,
      state: attempt.state,
      codeChallenge: attempt.codeChallenge,
      nonce: attempt.nonce,
      flow: attempt.flow,
      authTime: now,
    };
    const walk = options.walk ? await this.autologin.begin(manager, login, now) : null;
    if (walk) return { kind: 'walk', ...walk, organizationId: attempt.organizationId, userId: user.id, attemptId: attempt.id };
    const code = await this.codes.issue(manager, { ...login, origin: login.flow }, now);
    return {
      kind: 'code',
      code,
      state: attempt.state,
      redirectUri: attempt.redirectUri,
      url: withQuery(attempt.redirectUri, { code, state: attempt.state }),
      organizationId: attempt.organizationId,
      userId: user.id,
      attemptId: attempt.id,
    };
  }
}
