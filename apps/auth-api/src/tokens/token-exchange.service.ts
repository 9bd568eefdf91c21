import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Clock, problem, ProblemException, randomSecret, SESAME_CONFIG, SesameConfig, sha256 } from '@sesame/common';
import { ClientPrincipal } from '@sesame/guards';
import { prepared, queryPrepared } from '@sesame/entities';
import { DataSource } from 'typeorm';
import { TokenResponse, VerifyForm } from './dto/token.dto';
import { AccessTokensService } from './access-tokens.service';
import { IdTokenService } from './id-token.service';
import { invalidGrant } from './oauth-errors';
import { challengeOf, verifierMatches } from './pkce';

interface ClaimedCode {
  user_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  auth_time: Date;
  nonce: string | null;
  autologin: boolean;
  email: string;
  email_verified: boolean;
  organization_id: string;
  blocked: boolean;
  /** True when the grant checks passed and the access token was stored. */
  granted: boolean;
}

/**
 * The whole exchange in one statement (one round trip, one commit). The conditional UPDATE is the
 * claim: of concurrent redemptions exactly one gets the row. The code is used up even when the
 * checks fail, so a wrong verifier or redirect_uri cannot be retried. The code records the hash
 * of its token (for the replay rule), and the token is stored only when the checks pass: the
 * exact redirect_uri, a user not blocked, and PKCE — the code's challenge equals
 * BASE64URL(SHA-256(code_verifier)) ($7, computed by the service), or the code has no challenge,
 * no verifier was sent ($7 null: downgrade protection), the client has a secret ($8), and the
 * client said it handles an autologin walk ($9) exactly when the code is a walk stop's.
 */
const CLAIM_CODE_AND_ISSUE_TOKEN = prepared(
  'claim-code-and-issue-token',
  `WITH claimed AS (
     UPDATE authorization_code SET used_at = $3, access_token_hash = $5
      WHERE hash = $1 AND application_id = $2 AND used_at IS NULL AND expires_at > $3
      RETURNING user_id, redirect_uri, code_challenge, auth_time, nonce, autologin),
   checked AS (
     SELECT c.*, u.email, u.email_verified, u.organization_id, u.blocked,
            (c.redirect_uri = $4 AND NOT u.blocked
             AND (c.code_challenge = $7 OR (c.code_challenge IS NULL AND $7::text IS NULL AND $8::boolean AND c.autologin = $9::boolean))) AS granted
       FROM claimed c JOIN "user" u ON u.id = c.user_id),
   issued AS (
     INSERT INTO access_token (hash, application_id, user_id, organization_id, expires_at, created_at)
     SELECT $5, $2, user_id, organization_id, $6, $3 FROM checked WHERE granted
     RETURNING 1)
   SELECT * FROM checked`,
);

/** POST /v1/verify: exchanges an authorization code for an access token and an id_token. */
@Injectable()
export class TokenExchangeService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
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
    const rows = await queryPrepared<ClaimedCode>(this.dataSource, CLAIM_CODE_AND_ISSUE_TOKEN, [
      codeHash,
      client.applicationId,
      now,
      form.redirect_uri,
      sha256(accessToken),
      expiresAt,
      form.code_verifier === undefined ? null : challengeOf(form.code_verifier),
      client.method !== 'none',
      form.autologin === 'true',
    ]);
    const code = rows[0];
    if (!code) throw await this.refuseUnusable(client, codeHash, now);
    if (!code.granted) throw this.refusal(client, code, form) ?? invalidGrant('The code cannot be used by this request');

    const idToken = await this.idTokens.issue(
      { userId: code.user_id, email: code.email, emailVerified: code.email_verified, organizationId: code.organization_id, authTime: code.auth_time, nonce: code.nonce },
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
      if (code.autologin && form.autologin !== 'true') return invalidGrant('This code is an autologin stop’s: exchange it with autologin=true');
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
    const rows: { used_at: Date | null; access_token_hash: Buffer | null }[] = await this.dataSource.query(
      'SELECT used_at, access_token_hash FROM authorization_code WHERE hash = $1 AND application_id = $2',
      [codeHash, client.applicationId],
    );
    if (rows[0]?.used_at) {
      if (rows[0].access_token_hash) await this.accessTokens.revokeByHash(client.applicationId, rows[0].access_token_hash, now);
      return invalidGrant('The code has already been used; tokens issued from it are revoked');
    }
    return invalidGrant('The code is invalid, expired, or was issued to another client');
  }
}
