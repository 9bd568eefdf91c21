import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { deleteRows } from './batch-delete';

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
   * Makes the row of an address that has none, holding `first` (its first attempt), locked for
   * the caller's transaction; false, changing nothing, when the address has a row. A concurrent
   * request's uncommitted row counts: this waits for that request's commit.
   */
  async insertFirst(manager: EntityManager, organizationId: string, email: string, first: EmailThrottleState): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO email_throttle (organization_id, email, attempts, allowed_date, last_attempt_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (organization_id, email) DO NOTHING RETURNING 1`,
      [organizationId, email, first.attempts, first.allowedDate, first.lastAttemptAt],
    );
    return rows.length > 0;
  }

  /**
   * Locks the address's row for the caller's transaction, creating it first if needed, so even
   * the first request for an address serialises with concurrent ones. Null when the address has
   * no attempt on record.
   */
  async lock(manager: EntityManager, organizationId: string, email: string, now: Date): Promise<EmailThrottleState | null> {
    // One statement: the row is made if the address has none, and locked either way (an upsert's update locks the row, as FOR UPDATE would).
    const rows: { attempts: number; allowed_date: Date; last_attempt_at: Date }[] = await manager.query(
      `INSERT INTO email_throttle (organization_id, email, attempts, allowed_date, last_attempt_at) VALUES ($1, $2, 0, $3, $3)
       ON CONFLICT (organization_id, email) DO UPDATE SET attempts = email_throttle.attempts
       RETURNING attempts, allowed_date, last_attempt_at`,
      [organizationId, email, now],
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

  /**
   * Puts the address's backoff back as it was (`previous`), or forgets its attempts when it had
   * none on record; its wrong codes stay counted.
   */
  async restore(manager: EntityManager, organizationId: string, email: string, previous: EmailThrottleState | null): Promise<void> {
    if (!previous) {
      await manager.query(
        `DELETE FROM email_throttle WHERE organization_id = $1 AND email = $2 AND code_failures = '{}' AND codes_disabled_at IS NULL`,
        [organizationId, email],
      );
      await manager.query(
        'UPDATE email_throttle SET attempts = 0, allowed_date = last_attempt_at WHERE organization_id = $1 AND email = $2',
        [organizationId, email],
      );
      return;
    }
    await manager.query(
      'UPDATE email_throttle SET attempts = $3, allowed_date = $4, last_attempt_at = $5 WHERE organization_id = $1 AND email = $2',
      [organizationId, email, previous.attempts, previous.allowedDate, previous.lastAttemptAt],
    );
  }

  /** A successful login resets the address's backoff and its wrong codes (a used link enables its codes again). */
  async clear(manager: EntityManager, organizationId: string, email: string): Promise<void> {
    await manager.query('DELETE FROM email_throttle WHERE organization_id = $1 AND email = $2', [organizationId, email]);
  }

  /** When the next attempt for the address is allowed, or null when it has no backoff. */
  async allowedDate(organizationId: string, email: string): Promise<Date | null> {
    const rows: { allowed_date: Date }[] = await this.dataSource.query(
      'SELECT allowed_date FROM email_throttle WHERE organization_id = $1 AND email = $2',
      [organizationId, email],
    );
    return rows[0]?.allowed_date ?? null;
  }

  /**
   * Whether the address's codes are disabled, locking its row (when it has one) for the caller's
   * transaction, so concurrent wrong codes for the address are counted one after another.
   */
  async lockCodes(manager: EntityManager, organizationId: string, email: string): Promise<{ disabled: boolean }> {
    const rows: { codes_disabled_at: Date | null }[] = await manager.query(
      'SELECT codes_disabled_at FROM email_throttle WHERE organization_id = $1 AND email = $2 FOR UPDATE',
      [organizationId, email],
    );
    return { disabled: Boolean(rows[0]?.codes_disabled_at) };
  }

  /**
   * Counts a wrong code for the address: the failures of the last `windowStart`..now are kept (at
   * most `limit` of them), and the `limit`-th disables the address's codes. Returns whether they are disabled now.
   */
  async recordWrongCode(
    manager: EntityManager,
    organizationId: string,
    email: string,
    now: Date,
    windowStart: Date,
    limit: number,
  ): Promise<{ disabled: boolean }> {
    const rows: { codes_disabled_at: Date | null }[] = await manager.query(
      `INSERT INTO email_throttle AS t (organization_id, email, attempts, allowed_date, last_attempt_at, code_failures, codes_disabled_at)
       VALUES ($1, $2, 0, $3, $3, ARRAY[$3::timestamptz], CASE WHEN $5 <= 1 THEN $3::timestamptz END)
       ON CONFLICT (organization_id, email) DO UPDATE SET
         code_failures = ARRAY(SELECT at FROM unnest(t.code_failures || $3::timestamptz) AS at WHERE at > $4 ORDER BY at DESC LIMIT $5),
         codes_disabled_at = COALESCE(t.codes_disabled_at,
           CASE WHEN (SELECT count(*) FROM unnest(t.code_failures) AS at WHERE at > $4) + 1 >= $5 THEN $3::timestamptz END)
       RETURNING codes_disabled_at`,
      [organizationId, email, now, windowStart, limit],
    );
    return { disabled: Boolean(rows[0]?.codes_disabled_at) };
  }

  /**
   * Retention: rows with no attempt since `before`, at most `limit` of them, skipping rows a login
   * holds. The backoff forgets attempts older than a day and never delays by more than 15 minutes,
   * so such a row changes nothing: the next attempt starts afresh. An address whose codes are
   * disabled keeps its row until `disabledBefore` (its codes stay off until one of its links is used).
   */
  deleteIdleSince(before: Date, disabledBefore: Date, limit: number): Promise<number> {
    return deleteRows(
      this.dataSource,
      `DELETE FROM email_throttle WHERE (organization_id, email) IN (
         SELECT organization_id, email FROM email_throttle
          WHERE last_attempt_at < $1 AND (codes_disabled_at IS NULL OR codes_disabled_at < $2)
          LIMIT $3 FOR UPDATE SKIP LOCKED)`,
      [before, disabledBefore, limit],
    );
  }
}
