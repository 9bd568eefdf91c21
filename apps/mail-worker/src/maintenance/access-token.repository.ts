import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { deleteRows } from '@sesame/entities';
import { DataSource } from 'typeorm';

/** access_token, for retention: deletes in batches of at most `limit`, skipping rows another transaction holds. */
@Injectable()
export class AccessTokenRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Tokens that expired before `before`. */
  deleteExpired(before: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM access_token WHERE hash IN (
         SELECT hash FROM access_token WHERE expires_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }

  /** Tokens revoked before `before` (a separate statement, so each uses its own index). */
  deleteRevoked(before: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM access_token WHERE hash IN (
         SELECT hash FROM access_token WHERE revoked_at IS NOT NULL AND revoked_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }
}
