import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { badRequest, Clock, ProblemException, randomSecret, SESAME_CONFIG, SesameConfig, sha256 } from '@sesame/common';
import { ClientPrincipal } from '@sesame/guards';
import { DataSource, EntityManager } from 'typeorm';
import { TokenResponse, VerifyForm } from './dto/token.dto';
import { IdTokenService } from './id-token.service';
import { invalidGrant } from './oauth-errors';
import { verifierMatches } from './pkce';

interface ClaimedCode {
  user_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  auth_time: Date;
  email: string;
  email_verified: boolean;
  organization_id: string;
  blocked: boolean;
}

/** POST /v1/verify: exchanges an authorization code for an access token and an id_token. */
@Injectable()
export class TokenExchangeService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly idTokens: IdTokenService,
    private readonly clock: Clock,
    @Inject(SESAME_CONFIG) private readonly config: SesameConfig,
  ) {}

  async exchange(client: ClientPrincipal, form: VerifyForm): Promise<TokenResponse> {
    if (form.grant_type !== undefined && form.grant_type !== 'authorization_code') {
      throw badRequest('unsupported_grant_type', 'Only the authorization_code grant is supported');
    }
    const now = this.clock.now();
    const codeHash = sha256(form.code);
    const issued = await this.dataSource.transaction(async (manager) => {
      const code = await this.claim(manager, codeHash, client.applicationId, now);
      if (!code) return null;
      // Refused grants return (not throw) their error, so that the claim commits: the code is used up.
      const refusal = this.refusal(client, code, form);
      if (refusal) return { refusal };
      const accessToken = randomSecret();
      const expiresAt = new Date(now.getTime() + this.config.auth.accessTokenTtlSeconds * 1000);
      await manager.query(
        `INSERT INTO access_token (hash, application_id, user_id, organization_id, code_hash, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [sha256(accessToken), client.applicationId, code.user_id, code.organization_id, codeHash, expiresAt, now],
      );
      return { code, accessToken, expiresAt };
    });
    if (!issued) throw await this.refuseUnclaimed(codeHash, now);
    if ('refusal' in issued) throw issued.refusal;

    const idToken = await this.idTokens.issue(
      {
        userId: issued.code.user_id,
        email: issued.code.email,
        emailVerified: issued.code.email_verified,
        organizationId: issued.code.organization_id,
        authTime: issued.code.auth_time,
      },
      { clientId: client.clientId, clientSecretHash: client.clientSecretHash },
      now,
    );
    return {
      access_token: issued.accessToken,
      id_token: idToken,
      expires_in: this.config.auth.accessTokenTtlSeconds,
      expires_at: issued.expiresAt.toISOString(),
      token_type: 'Bearer',
    };
  }

  /**
   * Marks the code used with one conditional UPDATE: of concurrent redemptions exactly one gets
   * it. A code is consumed even when the checks after this fail, so a wrong verifier cannot be
   * retried. Another application's code, an unknown or expired one yields nothing.
   */
  private async claim(manager: EntityManager, codeHash: Buffer, applicationId: string, now: Date): Promise<ClaimedCode | null> {
    const rows: ClaimedCode[] = await manager.query(
      `WITH claimed AS (
         UPDATE authorization_code SET used_at = $3
          WHERE hash = $1 AND application_id = $2 AND used_at IS NULL AND expires_at > $3
          RETURNING user_id, redirect_uri, code_challenge, auth_time)
       SELECT c.*, u.email, u.email_verified, u.organization_id, u.blocked
         FROM claimed c JOIN "user" u ON u.id = c.user_id`,
      [codeHash, applicationId, now],
    );
    return rows[0] ?? null;
  }

  /** Why a claimed code grants nothing to this request, or null when it grants tokens. */
  private refusal(client: ClientPrincipal, code: ClaimedCode, form: VerifyForm): ProblemException | null {
    if (form.redirect_uri !== code.redirect_uri) return invalidGrant('redirect_uri does not match the one the login was started with');
    if (code.code_challenge === null) {
      // Downgrade protection: a verifier for a code issued without a challenge is refused.
      if (form.code_verifier !== undefined) return invalidGrant('code_verifier sent for a login started without code_challenge');
      if (client.method === 'none') return invalidGrant('Clients without a secret must use PKCE');
    } else if (form.code_verifier === undefined || !verifierMatches(form.code_verifier, code.code_challenge)) {
      return invalidGrant('code_verifier does not match the code_challenge');
    }
    if (code.blocked) return invalidGrant('The user is blocked');
    return null;
  }

  /** Why a code could not be claimed. A second use also revokes the tokens issued from it (RFC 6749 §4.1.2). */
  private async refuseUnclaimed(codeHash: Buffer, now: Date) {
    const rows: { used_at: Date | null }[] = await this.dataSource.query('SELECT used_at FROM authorization_code WHERE hash = $1', [codeHash]);
    if (rows[0]?.used_at) {
      await this.dataSource.query('UPDATE access_token SET revoked_at = $2 WHERE code_hash = $1 AND revoked_at IS NULL', [codeHash, now]);
      return invalidGrant('The code has already been used; tokens issued from it are revoked');
    }
    return invalidGrant('The code is invalid, expired, or was issued to another client');
  }
}
