import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { deleteRows } from '@sesame/entities';
import { DataSource } from 'typeorm';

/** authorization_code, for retention: deletes in batches of at most `limit`, skipping rows another transaction holds. */
@Injectable()
export class AuthorizationCodeRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Codes never used that expired before `expiredBefore`. */
  deleteUnusedExpired(expiredBefore: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM authorization_code WHERE hash IN (
         SELECT hash FROM authorization_code WHERE used_at IS NULL AND expires_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [expiredBefore, limit],
    );
  }

  /**
   * Codes used before `usedBefore` from which no token is still alive at `now`. A used code is
   * what makes a replay revoke its tokens (RFC 6749 §4.1.2), so it stays while one of them lives;
   * `usedBefore` (a day past the longest lifetime of a token) keeps the scan off codes whose tokens
   * are normally still alive, and the NOT EXISTS covers tokens issued under a longer lifetime.
   */
  deleteUsedWithoutLiveTokens(usedBefore: Date, now: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM authorization_code WHERE hash IN (
         SELECT c.hash FROM authorization_code c
          WHERE c.used_at IS NOT NULL AND c.used_at < $1
            AND NOT EXISTS (SELECT 1 FROM access_token t WHERE t.hash = c.access_token_hash AND t.revoked_at IS NULL AND t.expires_at > $2)
          LIMIT $3 FOR UPDATE OF c SKIP LOCKED)`,
      [usedBefore, now, limit],
    );
  }
}
