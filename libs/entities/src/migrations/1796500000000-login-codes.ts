// The 6-digit code beside every login link: its HMAC verifier, the wrong tries, and the `locked` status they lead to.
import { MigrationInterface, QueryRunner } from 'typeorm';

export class LoginCodes1796500000000 implements MigrationInterface {
  name = 'LoginCodes1796500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TYPE "public"."login_attempt_status" ADD VALUE IF NOT EXISTS 'locked'`);
    await queryRunner.query(`ALTER TABLE "login_attempt" ADD "code_verifier" bytea`);
    await queryRunner.query(`ALTER TABLE "login_attempt" ADD "code_failures" integer NOT NULL DEFAULT 0`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP COLUMN "code_failures"`);
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP COLUMN "code_verifier"`);
    // Postgres cannot drop an enum value: locked attempts become expired, and the type is rebuilt without it.
    await queryRunner.query(`UPDATE "login_attempt" SET "status" = 'expired' WHERE "status" = 'locked'`);
    await queryRunner.query(`ALTER TYPE "public"."login_attempt_status" RENAME TO "login_attempt_status_old"`);
    await queryRunner.query(`CREATE TYPE "public"."login_attempt_status" AS ENUM('pending', 'completed', 'expired')`);
    await queryRunner.query(`DROP INDEX "public"."login_attempt_live_sentence"`);
    await queryRunner.query(`DROP INDEX "public"."login_attempt_unsent"`);
    await queryRunner.query(`ALTER TABLE "login_attempt" ALTER COLUMN "status" DROP DEFAULT`);
    await queryRunner.query(
      `ALTER TABLE "login_attempt" ALTER COLUMN "status" TYPE "public"."login_attempt_status" USING "status"::"text"::"public"."login_attempt_status"`,
    );
    await queryRunner.query(`ALTER TABLE "login_attempt" ALTER COLUMN "status" SET DEFAULT 'pending'`);
    await queryRunner.query(`DROP TYPE "public"."login_attempt_status_old"`);
    await queryRunner.query(`CREATE UNIQUE INDEX "login_attempt_live_sentence" ON "login_attempt" ("sentence") WHERE status = 'pending'`);
    await queryRunner.query(
      `CREATE INDEX "login_attempt_unsent" ON "login_attempt" ("expires_at") WHERE status = 'pending' AND mail_sent_at IS NULL AND NOT mail_suppressed`,
    );
  }
}
