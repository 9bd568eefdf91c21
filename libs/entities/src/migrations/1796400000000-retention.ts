// Indexes the maintenance job deletes by: codes, tokens, login attempts and e-mail throttle rows past their retention.
// Built CONCURRENTLY (outside a transaction), so a deployment with millions of rows keeps taking
// logins and exchanging codes while they build; a failed build leaves an INVALID index to drop
// before running the migration again (docs/operations.md, Upgrading).
import { MigrationInterface, QueryRunner } from 'typeorm';

export class Retention1796400000000 implements MigrationInterface {
  name = 'Retention1796400000000';
  transaction = false;

  public async up(queryRunner: QueryRunner): Promise<void> {
    // Building these on tables of millions of rows outlasts the apps' statement timeout.
    await queryRunner.query(`SET statement_timeout = 0`);
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY "access_token_revoked_at" ON "access_token"  ("revoked_at") WHERE revoked_at IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX CONCURRENTLY "access_token_expires_at" ON "access_token"  ("expires_at") `);
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY "authorization_code_used" ON "authorization_code"  ("used_at") WHERE used_at IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX CONCURRENTLY "authorization_code_unused_expiry" ON "authorization_code"  ("expires_at") WHERE used_at IS NULL`,
    );
    await queryRunner.query(`CREATE INDEX CONCURRENTLY "email_throttle_last_attempt_at" ON "email_throttle"  ("last_attempt_at") `);
    await queryRunner.query(`CREATE INDEX CONCURRENTLY "login_attempt_created_at" ON "login_attempt"  ("created_at") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX CONCURRENTLY "public"."login_attempt_created_at"`);
    await queryRunner.query(`DROP INDEX CONCURRENTLY "public"."email_throttle_last_attempt_at"`);
    await queryRunner.query(`DROP INDEX CONCURRENTLY "public"."authorization_code_unused_expiry"`);
    await queryRunner.query(`DROP INDEX CONCURRENTLY "public"."authorization_code_used"`);
    await queryRunner.query(`DROP INDEX CONCURRENTLY "public"."access_token_expires_at"`);
    await queryRunner.query(`DROP INDEX CONCURRENTLY "public"."access_token_revoked_at"`);
  }
}
