import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { deleteRows } from '@sesame/entities';
import { DataSource } from 'typeorm';

/** audit_event, for retention: deletes in batches of at most `limit`. */
@Injectable()
export class AuditEventRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Events recorded before `before`. */
  deleteCreatedBefore(before: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM audit_event WHERE id IN (
         SELECT id FROM audit_event WHERE created_at < $1 LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }
}
