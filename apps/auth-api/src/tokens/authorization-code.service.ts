import { Inject, Injectable } from '@nestjs/common';
import { randomSecret, SESAME_CONFIG, SesameConfig, sha256 } from '@sesame/common';
import { AuthorizationCodeRepository, LoginFlow } from '@sesame/entities';
import { EntityManager } from 'typeorm';

/** Where a code comes from: a login (by how it started), or a stop of an autologin walk. */
export type CodeOrigin = LoginFlow | 'autologin';

export interface CodeGrant {
  applicationId: string;
  userId: string;
  /** The redirect_uri string given at login start: verify must present the identical string. */
  redirectUri: string;
  codeChallenge: string | null;
  authTime: Date;
  /** The OpenID Connect nonce of the login's request, returned in the id_token. */
  nonce: string | null;
  origin: CodeOrigin;
}

/**
 * Issues short-lived, single-use authorization codes; only their hashes are stored. Every code
 * passes here, so the rules of what a code may be are kept in one place:
 * - a hosted-page login's code is bound to a PKCE challenge (RFC 9700 §2.1.1): anyone who knows a
 *   client_id can start one, so without PKCE its code could be injected into someone else's callback;
 * - an autologin stop's code has no challenge (that domain did not start the login) and is marked,
 *   so /v1/verify exchanges it only when the client says it is handling a walk (`autologin=true`).
 */
@Injectable()
export class AuthorizationCodeService {
  constructor(
    private readonly codes: AuthorizationCodeRepository,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  async issue(manager: EntityManager, grant: CodeGrant, now: Date): Promise<string> {
    if (grant.origin === 'hosted' && grant.codeChallenge === null) throw new Error('A hosted-page login must be bound to a PKCE challenge');
    if (grant.origin === 'autologin' && grant.codeChallenge !== null) throw new Error('Autologin stops have no PKCE challenge');
    const code = randomSecret();
    await this.codes.insert(manager, {
      hash: sha256(code),
      applicationId: grant.applicationId,
      userId: grant.userId,
      redirectUri: grant.redirectUri,
      codeChallenge: grant.codeChallenge,
      authTime: grant.authTime,
      nonce: grant.nonce,
      autologin: grant.origin === 'autologin',
      expiresAt: new Date(now.getTime() + this.config.auth.codeTtlSeconds * 1000),
      createdAt: now,
    });
    return code;
  }
}
