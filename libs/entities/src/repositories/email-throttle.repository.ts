import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { deleteRows } from '../batch-delete';

/** Where the next attempt for an address stands: how many recent ones, and when the next is allowed. */
export interface EmailThrottleState {
  attempts: number;
  allowedDate: Date;
  lastAttemptAt: Date;
}

/** Per organization and normalised address: the backoff between login e-mails (the email_throttle table's SQL, all of it). */
@Injectable()
export class EmailThrottleRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * Locks the address's row for the caller's transaction, creating it first if needed, so even
   * the first request for an address serialises with concurrent ones. Null when the address has
   * no attempt on record.
   */
  async lock(manager: EntityManager, organizationId: string, email: string, now: Date): Promise<EmailThrottleState | null> {
    await manager.query(
      `INSERT INTO email_throttle (organization_id, email, attempts, allowed_date, last_attempt_at) VALUES ($1, $2, 0, $3, $3)
       ON CONFLICT DO NOTHING`,
      [organizationId, email, now],
    );
    const rows: { attempts: number; allowed_date: Date; last_attempt_at: Date }[] = await manager.query(
      'SELECT attempts, allowed_date, last_attempt_at FROM email_throttle WHERE organization_id = $1 AND email = $2 FOR UPDATE',
      [organizationId, email],
    );
    const row = rows[0];
    return row.attempts === 0 ? null : { attempts: row.attempts, allowedDate: row.allowed_date, lastAttemptAt: row.last_attempt_at };
  }

  async save(manager: EntityManager, organizationId: string, email: string, state: EmailThrottleState): Promise<void> {
    await manager.query(
      `INSERT INTO email_throttle (organization_id, email, attempts, allowed_date, last_attempt_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organization_id, email) DO UPDATE SET attempts = $3, allowed_date = $4, last_attempt_at = $5`,
      [organizationId, email, state.attempts, state.allowedDate, state.lastAttemptAt],
    );
  }

  /** Puts the address back as it was (`previous`), or forgets it when it had no attempt on record. */
  async restore(manager: EntityManager, organizationId: string, email: string, previous: EmailThrottleState | null): Promise<void> {
    if (!previous) return this.clear(manager, organizationId, email);
    await manager.query('UPDATE email_throttle SET attempts = $3, allowed_date = $4, last_attempt_at = $5 WHERE organization_id = $1 AND email = $2', [
      organizationId,
      email,
      previous.attempts,
      previous.allowedDate,
      previous.lastAttemptAt,
    ]);
  }

  /** A successful login resets the address's backoff. */
  async clear(manager: EntityManager, organizationId: string, email: string): Promise<void> {
    await manager.query('DELETE FROM email_throttle WHERE organization_id = $1 AND email = $2', [organizationId, email]);
  }

  /** When the next attempt for the address is allowed, or null when it has no backoff. */
  async allowedDate(organizationId: string, email: string): Promise<Date | null> {
    const rows: { allowed_date: Date }[] = await this.dataSource.query('SELECT allowed_date FROM email_throttle WHERE organization_id = $1 AND email = $2', [
      organizationId,
      email,
    ]);
    return rows[0]?.allowed_date ?? null;
  }

  /**
   * Retention: rows with no attempt since `before`, at most `limit` of them, skipping rows a login
   * holds. The backoff forgets attempts older than a day and never delays by more than 15 minutes,
   * so such a row changes nothing: the next attempt starts afresh.
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
