import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { deleteRows } from '@sesame/entities';
import { DataSource } from 'typeorm';

/** login_attempt, for retention: deletes in batches of at most `limit`, skipping rows another transaction holds. */
@Injectable()
export class LoginAttemptRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Attempts made before `before` (long expired or used: a link lives at most a day). */
  deleteCreatedBefore(before: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM login_attempt WHERE id IN (
         SELECT id FROM login_attempt WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }
}
