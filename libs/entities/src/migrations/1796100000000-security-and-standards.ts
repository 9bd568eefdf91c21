import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Client secrets get HMAC verifiers and a rotation overlap; applications choose an encrypted or a
 * signed-only id_token; codes of autologin walks are marked; logins record how they started,
 * their OpenID Connect nonce, and the browser an autologin walk belongs to.
 *
 * The HMAC needs SECRETS_KEY, which a migration does not have: `npm run cli -- migrate` computes the
 * verifiers of existing secrets right after this migration (from the sealed secrets) and erases
 * their bare SHA-256 hashes; until then client authentication still accepts those hashes.
 */
export class SecurityAndStandards1796100000000 implements MigrationInterface {
  name = 'SecurityAndStandards1796100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "application" ADD "client_secret_verifier" bytea`);
    await queryRunner.query(`ALTER TABLE "application" ADD "previous_client_secret_verifier" bytea`);
    await queryRunner.query(`ALTER TABLE "application" ADD "previous_client_secret_encrypted" text`);
    await queryRunner.query(`ALTER TABLE "application" ADD "previous_client_secret_expires_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "application" ADD "id_token_encrypted_response_alg" character varying(16)`);
    // Web apps keep the encrypted id_token they had.
    await queryRunner.query(`UPDATE "application" SET "id_token_encrypted_response_alg" = 'dir' WHERE "type" = 'web'`);
    await queryRunner.query(`ALTER TABLE "authorization_code" ADD "autologin" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "authorization_code" ADD "nonce" character varying(512)`);
    await queryRunner.query(`CREATE TYPE "public"."login_flow" AS ENUM('direct', 'hosted')`);
    await queryRunner.query(`ALTER TABLE "login_attempt" ADD "flow" "public"."login_flow" NOT NULL DEFAULT 'direct'`);
    await queryRunner.query(`ALTER TABLE "login_attempt" ADD "nonce" character varying(512)`);
    await queryRunner.query(`ALTER TABLE "login_attempt" ADD "autologin_browser_hash" bytea`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP COLUMN "autologin_browser_hash"`);
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP COLUMN "nonce"`);
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP COLUMN "flow"`);
    await queryRunner.query(`DROP TYPE "public"."login_flow"`);
    await queryRunner.query(`ALTER TABLE "authorization_code" DROP COLUMN "nonce"`);
    await queryRunner.query(`ALTER TABLE "authorization_code" DROP COLUMN "autologin"`);
    await queryRunner.query(`ALTER TABLE "application" DROP COLUMN "id_token_encrypted_response_alg"`);
    await queryRunner.query(`ALTER TABLE "application" DROP COLUMN "previous_client_secret_expires_at"`);
    await queryRunner.query(`ALTER TABLE "application" DROP COLUMN "previous_client_secret_encrypted"`);
    await queryRunner.query(`ALTER TABLE "application" DROP COLUMN "previous_client_secret_verifier"`);
    await queryRunner.query(`ALTER TABLE "application" DROP COLUMN "client_secret_verifier"`);
  }
}
