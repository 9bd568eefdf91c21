// Approval from another device: the `approved` status, the requesting side's user agent, and the hosted page's browser cookie hash.
import { MigrationInterface, QueryRunner } from 'typeorm';

export class LoginApproval1796500000001 implements MigrationInterface {
  name = 'LoginApproval1796500000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TYPE "public"."login_attempt_status" ADD VALUE IF NOT EXISTS 'approved'`);
    await queryRunner.query(`ALTER TABLE "login_attempt" ADD "requester_user_agent" character varying(512)`);
    await queryRunner.query(`ALTER TABLE "login_attempt" ADD "requester_browser_hash" bytea`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP COLUMN "requester_browser_hash"`);
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP COLUMN "requester_user_agent"`);
    // The value 'approved' stays in the type (Postgres cannot drop one); approved attempts become expired.
    await queryRunner.query(`UPDATE "login_attempt" SET "status" = 'expired' WHERE "status" = 'approved'`);
  }
}
