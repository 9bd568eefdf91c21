import { Inject, Injectable } from '@nestjs/common';
import { randomSecret, SESAME_CONFIG, SesameConfig, sha256 } from '@sesame/common';
import { EntityManager } from 'typeorm';

export interface CodeGrant {
  applicationId: string;
  userId: string;
  /** The redirect_uri string given at login start: verify must present the identical string. */
  redirectUri: string;
  codeChallenge: string | null;
  authTime: Date;
}

/** Issues short-lived, single-use authorization codes; only their hashes are stored. */
@Injectable()
export class AuthorizationCodeService {
  constructor(@Inject(SESAME_CONFIG) private readonly config: SesameConfig) {}

  async issue(manager: EntityManager, grant: CodeGrant, now: Date): Promise<string> {
    const code = randomSecret();
    await manager.query(
      `INSERT INTO authorization_code (hash, application_id, user_id, redirect_uri, code_challenge, auth_time, expires_at, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [sha256(code), grant.applicationId, grant.userId, grant.redirectUri, grant.codeChallenge, grant.authTime, new Date(now.getTime() + this.config.auth.codeTtlSeconds * 1000), now],
    );
    return code;
  }
}
