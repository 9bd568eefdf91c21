import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { deleteRows } from '@sesame/entities';
import { DataSource } from 'typeorm';

/** email_throttle, for retention: deletes in batches of at most `limit`, skipping rows a login holds. */
@Injectable()
export class EmailThrottleRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Rows with no attempt since `before`. The backoff forgets attempts older than a day and never
   * delays by more than 15 minutes, so such a row changes nothing: the next attempt starts afresh.
   */
  deleteIdleSince(before: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM email_throttle WHERE (organization_id, email) IN (
         SELECT organization_id, email FROM email_throttle WHERE last_attempt_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }
}
