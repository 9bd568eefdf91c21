// Tenant members and their console (the system tenant), the audit log, and the mail-failure time and activity index of login attempts.
import { MigrationInterface, QueryRunner } from 'typeorm';

export class TenantMembers1796300000000 implements MigrationInterface {
  name = 'TenantMembers1796300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TYPE "public"."audit_actor_type" AS ENUM('platform', 'api_key', 'member')`);
    await queryRunner.query(
      `CREATE TABLE "audit_event" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "actor_type" "public"."audit_actor_type" NOT NULL, "actor_id" uuid, "actor_name" character varying(320), "action" character varying(64) NOT NULL, "target_type" character varying(32) NOT NULL, "target_id" uuid, "changes" jsonb, "ip" character varying(64), "request_id" character varying(64), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_481efbe8b0a403efe3f47a6528f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "audit_event_created_at" ON "audit_event"  ("created_at") `);
    await queryRunner.query(`CREATE INDEX "audit_event_tenant_page" ON "audit_event"  ("tenant_id", "created_at", "id") `);
    await queryRunner.query(`CREATE TYPE "public"."tenant_member_role" AS ENUM('viewer', 'admin', 'owner')`);
    await queryRunner.query(
      `CREATE TABLE "tenant_member" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "email" character varying(254) NOT NULL, "role" "public"."tenant_member_role" NOT NULL, "invited_by" character varying(320), "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "last_sign_in_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_bec2f582d249f642cb12ab9e032" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "tenant_member_email" ON "tenant_member"  ("email") `);
    await queryRunner.query(`CREATE INDEX "tenant_member_tenant_page" ON "tenant_member"  ("tenant_id", "created_at", "id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "tenant_member_tenant_email" ON "tenant_member"  ("tenant_id", "email") `);
    await queryRunner.query(`ALTER TABLE "tenant" ADD "system" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "login_attempt" ADD "mail_failed_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`CREATE UNIQUE INDEX "tenant_system" ON "tenant"  ("system") WHERE system`);
    await queryRunner.query(`CREATE INDEX "login_attempt_organization_page" ON "login_attempt"  ("organization_id", "created_at", "id") `);
    await queryRunner.query(
      `ALTER TABLE "audit_event" ADD CONSTRAINT "FK_46e1833a51ccd789a32429a244c" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tenant_member" ADD CONSTRAINT "FK_ed59de0763e8a42c003d21a46e8" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "tenant_member" DROP CONSTRAINT "FK_ed59de0763e8a42c003d21a46e8"`);
    await queryRunner.query(`ALTER TABLE "audit_event" DROP CONSTRAINT "FK_46e1833a51ccd789a32429a244c"`);
    await queryRunner.query(`DROP INDEX "public"."login_attempt_organization_page"`);
    await queryRunner.query(`DROP INDEX "public"."tenant_system"`);
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP COLUMN "mail_failed_at"`);
    await queryRunner.query(`ALTER TABLE "tenant" DROP COLUMN "system"`);
    await queryRunner.query(`DROP INDEX "public"."tenant_member_tenant_email"`);
    await queryRunner.query(`DROP INDEX "public"."tenant_member_tenant_page"`);
    await queryRunner.query(`DROP INDEX "public"."tenant_member_email"`);
    await queryRunner.query(`DROP TABLE "tenant_member"`);
    await queryRunner.query(`DROP TYPE "public"."tenant_member_role"`);
    await queryRunner.query(`DROP INDEX "public"."audit_event_tenant_page"`);
    await queryRunner.query(`DROP INDEX "public"."audit_event_created_at"`);
    await queryRunner.query(`DROP TABLE "audit_event"`);
    await queryRunner.query(`DROP TYPE "public"."audit_actor_type"`);
  }
}
