// Passkeys of direct authentication: a passkey remembers the relying party (RP ID) it was
// registered under, since an application's own pages have their own (the host of the page's
// origin); NULL is the hosted page's (the host of PUBLIC_BASE_URL, which a migration cannot know,
// and which the hosted page's rows keep meaning when it changes). A registration after a direct
// login is granted by the access token that login issued: passkey_challenge names it, once.
import { MigrationInterface, QueryRunner } from 'typeorm';

export class DirectPasskeys1797100000000 implements MigrationInterface {
  name = 'DirectPasskeys1797100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "passkey" ADD "rp_id" character varying(253)`);
    await queryRunner.query(`ALTER TABLE "passkey_challenge" ADD "access_token_hash" bytea`);
    await queryRunner.query(`ALTER TABLE "passkey_challenge" DROP CONSTRAINT "passkey_challenge_registration"`);
    await queryRunner.query(
      `ALTER TABLE "passkey_challenge" ADD CONSTRAINT "passkey_challenge_registration"
        CHECK ("purpose" = 'authentication' OR ("user_id" IS NOT NULL AND ("login_attempt_id" IS NOT NULL OR "access_token_hash" IS NOT NULL)))`,
    );
    // One registration grant per access token: a direct login registers at most one passkey.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "passkey_challenge_access_token" ON "passkey_challenge" ("access_token_hash") WHERE "access_token_hash" IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."passkey_challenge_access_token"`);
    await queryRunner.query(`DELETE FROM "passkey_challenge" WHERE "login_attempt_id" IS NULL AND "purpose" = 'registration'`);
    await queryRunner.query(`ALTER TABLE "passkey_challenge" DROP CONSTRAINT "passkey_challenge_registration"`);
    await queryRunner.query(
      `ALTER TABLE "passkey_challenge" ADD CONSTRAINT "passkey_challenge_registration"
        CHECK ("purpose" = 'authentication' OR ("user_id" IS NOT NULL AND "login_attempt_id" IS NOT NULL))`,
    );
    await queryRunner.query(`ALTER TABLE "passkey_challenge" DROP COLUMN "access_token_hash"`);
    await queryRunner.query(`ALTER TABLE "passkey" DROP COLUMN "rp_id"`);
  }
}
