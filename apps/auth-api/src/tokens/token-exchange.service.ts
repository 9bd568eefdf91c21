import { Inject, Injectable } from '@nestjs/common';
import { Clock, problem, ProblemException, randomSecret, SESAME_CONFIG, SesameConfig, sha256, StatementBatcher } from '@sesame/common';
import { ClientPrincipal } from '@sesame/guards';
import { AuthorizationCodeRepository, ClaimedCode, CodeExchange } from '@sesame/entities';
import { TokenResponse, VerifyForm } from './dto/token.dto';
import { AccessTokensService } from './access-tokens.service';
import { IdTokenService } from './id-token.service';
import { invalidGrant } from './oauth-errors';
import { challengeOf, verifierMatches } from './pkce';

/**
 * One claim statement out at a time per instance, as userinfo's lookups: alone under light load,
 * under load every exchange that arrived meanwhile in the next statement (one commit for all).
 */
const CLAIM_BATCHING = { maxInFlight: 1, maxBatch: 100 };

/** POST /v1/verify: exchanges an authorization code for an access token and an id_token. */
@Injectable()
export class TokenExchangeService {
  private readonly claims = new StatementBatcher<CodeExchange, ClaimedCode | null>(
    (exchanges) => this.codes.claimAndIssueTokens(exchanges),
    CLAIM_BATCHING,
  );

  constructor(
    private readonly codes: AuthorizationCodeRepository,
    private readonly idTokens: IdTokenService,
    private readonly accessTokens: AccessTokensService,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  async exchange(client: ClientPrincipal, form: VerifyForm): Promise<TokenResponse> {
    if (form.grant_type !== undefined && form.grant_type !== 'authorization_code') {
      throw problem('unsupported_grant_type', 'Only the authorization_code grant is supported');
    }
    const now = this.clock.now();
    const codeHash = sha256(form.code);
    const accessToken = randomSecret();
    const expiresAt = new Date(now.getTime() + this.config.auth.accessTokenTtlSeconds * 1000);
    const code = await this.claims.submit({
      codeHash,
      applicationId: client.applicationId,
      now,
      redirectUri: form.redirect_uri,
      accessTokenHash: sha256(accessToken),
      expiresAt,
      challenge: form.code_verifier === undefined ? null : challengeOf(form.code_verifier),
      clientHasSecret: client.method !== 'none',
      autologin: form.autologin === 'true',
    });
    if (!code) throw await this.refuseUnusable(client, codeHash, now);
    if (!code.granted) throw this.refusal(client, code, form) ?? invalidGrant('The code cannot be used by this request');

    const idToken = await this.idTokens.issue(
      {
        userId: code.user_id,
        email: code.email,
        emailVerified: code.email_verified,
        organizationId: code.organization_id,
        authTime: code.auth_time,
        nonce: code.nonce,
      },
      { clientId: client.clientId, encryptionKey: client.idTokenKey },
      now,
    );
    return {
      access_token: accessToken,
      id_token: idToken,
      expires_in: this.config.auth.accessTokenTtlSeconds,
      expires_at: expiresAt.toISOString(),
      token_type: 'Bearer',
    };
  }

  /** Why a claimed code granted nothing to this request (the same rules as the statement, with a message). */
  private refusal(client: ClientPrincipal, code: ClaimedCode, form: VerifyForm): ProblemException | null {
    if (form.redirect_uri !== code.redirect_uri) return invalidGrant('redirect_uri does not match the one the login was started with');
    if (code.code_challenge === null) {
      // Downgrade protection: a verifier for a code issued without a challenge is refused.
      if (form.code_verifier !== undefined) return invalidGrant('code_verifier sent for a login started without code_challenge');
      if (client.method === 'none') return invalidGrant('Clients without a secret must use PKCE');
      if (code.autologin && form.autologin !== 'true')
        return invalidGrant('This code is an autologin stop’s: exchange it with autologin=true');
      if (!code.autologin && form.autologin === 'true') return invalidGrant('autologin=true is only for the codes of an autologin walk');
    } else if (form.code_verifier === undefined || !verifierMatches(form.code_verifier, code.code_challenge)) {
      return invalidGrant('code_verifier does not match the code_challenge');
    }
    if (code.blocked) return invalidGrant('The user is blocked');
    return null;
  }

  /**
   * Why a code cannot be used. A second use by the application the code belongs to also revokes
   * the token issued from it (RFC 6749 §4.1.2); another client presenting it changes nothing.
   */
  private async refuseUnusable(client: ClientPrincipal, codeHash: Buffer, now: Date) {
    const use = await this.codes.findUse(codeHash, client.applicationId);
    if (use?.usedAt) {
      if (use.accessTokenHash) await this.accessTokens.revokeByHash(client.applicationId, use.accessTokenHash, now);
      return invalidGrant('The code has already been used; tokens issued from it are revoked');
    }
    return invalidGrant('The code is invalid, expired, or was issued to another client');
  }
}
