// Roles that hold: API keys get a role (the members' role type, renamed access_role) and record who
// created them; console access tokens record their last use (idle sessions end).
import { MigrationInterface, QueryRunner } from 'typeorm';

export class KeyRoles1796700000001 implements MigrationInterface {
  name = 'KeyRoles1796700000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TYPE "public"."tenant_member_role" RENAME TO "access_role"`);
    await queryRunner.query(`ALTER TABLE "api_key" ADD "role" "public"."access_role"`);
    await queryRunner.query(`ALTER TABLE "api_key" ADD "created_by_member_id" uuid`);
    await queryRunner.query(`ALTER TABLE "api_key" ADD "created_by_api_key_id" uuid`);
    // Who created each key, where the audit log says so (and that creator still exists).
    await queryRunner.query(`UPDATE "api_key" k SET "created_by_member_id" = e."actor_id" FROM "audit_event" e
            WHERE e."action" = 'api_key.create' AND e."target_id" = k."id" AND e."actor_type" = 'member'
              AND EXISTS (SELECT 1 FROM "tenant_member" m WHERE m."id" = e."actor_id")`);
    await queryRunner.query(`UPDATE "api_key" k SET "created_by_api_key_id" = e."actor_id" FROM "audit_event" e
            WHERE e."action" = 'api_key.create' AND e."target_id" = k."id" AND e."actor_type" = 'api_key'
              AND EXISTS (SELECT 1 FROM "api_key" p WHERE p."id" = e."actor_id")`);
    // What works today keeps working: tenant keys owner, organization keys admin, but a member's keys at most the member's role.
    await queryRunner.query(
      `UPDATE "api_key" SET "role" = CASE WHEN "organization_id" IS NULL THEN 'owner' ELSE 'admin' END::"public"."access_role"`,
    );
    await queryRunner.query(
      `UPDATE "api_key" k SET "role" = LEAST(k."role", m."role") FROM "tenant_member" m WHERE m."id" = k."created_by_member_id"`,
    );
    await queryRunner.query(`ALTER TABLE "api_key" ALTER COLUMN "role" SET NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "api_key" ADD CONSTRAINT "api_key_organization_role" CHECK ("organization_id" IS NULL OR "role" <> 'owner')`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_key" ADD CONSTRAINT "FK_api_key_created_by_member" FOREIGN KEY ("created_by_member_id") REFERENCES "tenant_member"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_key" ADD CONSTRAINT "FK_api_key_created_by_api_key" FOREIGN KEY ("created_by_api_key_id") REFERENCES "api_key"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `CREATE INDEX "api_key_created_by_member" ON "api_key" ("created_by_member_id") WHERE "created_by_member_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "api_key_created_by_api_key" ON "api_key" ("created_by_api_key_id") WHERE "created_by_api_key_id" IS NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "access_token" ADD "last_used_at" TIMESTAMP(3) WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "access_token" DROP COLUMN "last_used_at"`);
    await queryRunner.query(`DROP INDEX "public"."api_key_created_by_api_key"`);
    await queryRunner.query(`DROP INDEX "public"."api_key_created_by_member"`);
    await queryRunner.query(`ALTER TABLE "api_key" DROP CONSTRAINT "FK_api_key_created_by_api_key"`);
    await queryRunner.query(`ALTER TABLE "api_key" DROP CONSTRAINT "FK_api_key_created_by_member"`);
    await queryRunner.query(`ALTER TABLE "api_key" DROP CONSTRAINT "api_key_organization_role"`);
    await queryRunner.query(`ALTER TABLE "api_key" DROP COLUMN "created_by_api_key_id"`);
    await queryRunner.query(`ALTER TABLE "api_key" DROP COLUMN "created_by_member_id"`);
    await queryRunner.query(`ALTER TABLE "api_key" DROP COLUMN "role"`);
    await queryRunner.query(`ALTER TYPE "public"."access_role" RENAME TO "tenant_member_role"`);
  }
}
