// Any-device login you can trust: the approval number's HMAC (null once approval ended), where the
// request came from, a random Message-ID per attempt, and wrong codes counted per address across attempts.
import { MigrationInterface, QueryRunner } from 'typeorm';

export class AnyDeviceTrust1796700000000 implements MigrationInterface {
  name = 'AnyDeviceTrust1796700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "login_attempt" ADD "approval_verifier" bytea`);
    await queryRunner.query(`ALTER TABLE "login_attempt" ADD "requester_ip" character varying(45)`);
    await queryRunner.query(`ALTER TABLE "login_attempt" ADD "message_id" uuid NOT NULL DEFAULT gen_random_uuid()`);
    await queryRunner.query(`ALTER TABLE "email_throttle" ADD "code_failures" TIMESTAMP(3) WITH TIME ZONE array NOT NULL DEFAULT '{}'`);
    await queryRunner.query(`ALTER TABLE "email_throttle" ADD "codes_disabled_at" TIMESTAMP(3) WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "email_throttle" DROP COLUMN "codes_disabled_at"`);
    await queryRunner.query(`ALTER TABLE "email_throttle" DROP COLUMN "code_failures"`);
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP COLUMN "message_id"`);
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP COLUMN "requester_ip"`);
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP COLUMN "approval_verifier"`);
  }
}
