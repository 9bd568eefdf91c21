// A code names the one token issued from it (authorization_code.access_token_hash) instead of every
// token naming its code (access_token.code_hash). A code issues at most one token, so the replay
// rule and retention find it through access_token's primary key, and access_token loses an index
// on a random key: one fewer page written at a random place of a large index per token issued.
import { MigrationInterface, QueryRunner } from 'typeorm';

export class TokenOfCode1796600000000 implements MigrationInterface {
  name = 'TokenOfCode1796600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "authorization_code" ADD "access_token_hash" bytea`);
    await queryRunner.query(
      `UPDATE "authorization_code" c SET "access_token_hash" = t."hash" FROM "access_token" t WHERE t."code_hash" = c."hash"`,
    );
    await queryRunner.query(`DROP INDEX "public"."access_token_code_hash"`);
    await queryRunner.query(`ALTER TABLE "access_token" DROP COLUMN "code_hash"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "access_token" ADD "code_hash" bytea`);
    await queryRunner.query(
      `UPDATE "access_token" t SET "code_hash" = c."hash" FROM "authorization_code" c WHERE c."access_token_hash" = t."hash"`,
    );
    await queryRunner.query(`CREATE INDEX "access_token_code_hash" ON "access_token" ("code_hash") `);
    await queryRunner.query(`ALTER TABLE "authorization_code" DROP COLUMN "access_token_hash"`);
  }
}
