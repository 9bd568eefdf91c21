import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { badRequest, Clock, ProblemException, randomSecret, SESAME_CONFIG, SesameConfig, sha256 } from '@sesame/common';
import { ClientPrincipal } from '@sesame/guards';
import { prepared, queryPrepared } from '@sesame/entities';
import { DataSource } from 'typeorm';
import { TokenResponse, VerifyForm } from './dto/token.dto';
import { AccessTokensService } from './access-tokens.service';
import { IdTokenService } from './id-token.service';
import { invalidGrant } from './oauth-errors';
import { verifierMatches } from './pkce';

interface CodeGrant {
  user_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  auth_time: Date;
  email: string;
  email_verified: boolean;
  organization_id: string;
  blocked: boolean;
}

const FIND_USABLE_CODE = prepared(
  'find-usable-code',
  `SELECT c.user_id, c.redirect_uri, c.code_challenge, c.auth_time, u.email, u.email_verified, u.organization_id, u.blocked
     FROM authorization_code c JOIN "user" u ON u.id = c.user_id
    WHERE c.hash = $1 AND c.application_id = $2 AND c.used_at IS NULL AND c.expires_at > $3`,
);

const CLAIM_CODE_AND_ISSUE_TOKEN = prepared(
  'claim-code-and-issue-token',
  `WITH claimed AS (
     UPDATE authorization_code SET used_at = $3
      WHERE hash = $1 AND application_id = $2 AND used_at IS NULL AND expires_at > $3
      RETURNING hash)
   INSERT INTO access_token (hash, application_id, user_id, organization_id, code_hash, expires_at, created_at)
   SELECT $4, $2, $5, $6, claimed.hash, $7, $3 FROM claimed
   RETURNING 1`,
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
      throw badRequest('unsupported_grant_type', 'Only the authorization_code grant is supported');
    }
    const now = this.clock.now();
    const codeHash = sha256(form.code);
    const code = await this.findUsable(codeHash, client.applicationId, now);
    if (!code) throw await this.refuseUnusable(codeHash, now);
    const refusal = this.refusal(client, code, form);
    if (refusal) {
      // A refused attempt uses the code up, so a wrong verifier or redirect_uri cannot be retried.
      await this.dataSource.query('UPDATE authorization_code SET used_at = $2 WHERE hash = $1 AND used_at IS NULL', [codeHash, now]);
      throw refusal;
    }

    const accessToken = randomSecret();
    const expiresAt = new Date(now.getTime() + this.config.auth.accessTokenTtlSeconds * 1000);
    if (!(await this.claimAndIssue(codeHash, client.applicationId, code, sha256(accessToken), expiresAt, now))) {
      throw await this.refuseUnusable(codeHash, now); // another request used the code meanwhile
    }
    const idToken = await this.idTokens.issue(
      { userId: code.user_id, email: code.email, emailVerified: code.email_verified, organizationId: code.organization_id, authTime: code.auth_time },
      { clientId: client.clientId, clientSecretHash: client.clientSecretHash },
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

  /** The unused, unexpired code of this application, with its user; another application's code is not found. */
  private async findUsable(codeHash: Buffer, applicationId: string, now: Date): Promise<CodeGrant | null> {
    const rows = await queryPrepared<CodeGrant>(this.dataSource, FIND_USABLE_CODE, [codeHash, applicationId, now]);
    return rows[0] ?? null;
  }

  /**
   * Marks the code used and stores the access token in one statement (one round trip, one
   * commit). The conditional UPDATE is the claim: of concurrent redemptions exactly one gets the
   * row, and only that one inserts a token. False when the code was used meanwhile.
   */
  private async claimAndIssue(codeHash: Buffer, applicationId: string, code: CodeGrant, tokenHash: Buffer, expiresAt: Date, now: Date): Promise<boolean> {
    const rows = await queryPrepared(this.dataSource, CLAIM_CODE_AND_ISSUE_TOKEN, [codeHash, applicationId, now, tokenHash, code.user_id, code.organization_id, expiresAt]);
    return rows.length === 1;
  }

  /** Why a code grants nothing to this request, or null when it grants tokens. */
  private refusal(client: ClientPrincipal, code: CodeGrant, form: VerifyForm): ProblemException | null {
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

  /** Why a code cannot be used. A second use also revokes the tokens issued from it (RFC 6749 §4.1.2). */
  private async refuseUnusable(codeHash: Buffer, now: Date) {
    const rows: { used_at: Date | null }[] = await this.dataSource.query('SELECT used_at FROM authorization_code WHERE hash = $1', [codeHash]);
    if (rows[0]?.used_at) {
      await this.accessTokens.revokeIssuedFrom(codeHash, now);
      return invalidGrant('The code has already been used; tokens issued from it are revoked');
    }
    return invalidGrant('The code is invalid, expired, or was issued to another client');
  }
}
