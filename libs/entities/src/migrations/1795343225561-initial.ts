import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795343225561 implements MigrationInterface {
  name = 'Initial1795343225561';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TYPE "public"."tenant_plan" AS ENUM('free', 'basic', 'pro', 'enterprise')`);
    await queryRunner.query(
      `CREATE TABLE "tenant" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" character varying(200) NOT NULL, "plan" "public"."tenant_plan" NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_da8c6efd67bb301e810e56ac139" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "organization" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "name" character varying(200) NOT NULL, "whitelist_domains" text array NOT NULL DEFAULT '{}', "autologin" boolean NOT NULL DEFAULT false, "link_ttl_seconds" integer NOT NULL DEFAULT '600', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_472c1f99a32def1b0abb219cd67" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "organization_tenant_page" ON "organization"  ("tenant_id", "created_at", "id") `);
    await queryRunner.query(`CREATE TYPE "public"."application_type" AS ENUM('web', 'android', 'ios', 'desktop')`);
    await queryRunner.query(
      `CREATE TABLE "application" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "name" character varying(200) NOT NULL, "type" "public"."application_type" NOT NULL, "client_id" character varying(64) NOT NULL, "client_secret_hash" bytea, "client_secret_encrypted" text, "callback_urls" text array NOT NULL DEFAULT '{}', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_569e0c3e863ebdf5f2408ee1670" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "application_organization_page" ON "application"  ("organization_id", "created_at", "id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "application_client_id" ON "application"  ("client_id") `);
    await queryRunner.query(
      `CREATE TABLE "user" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "email" character varying(254) NOT NULL, "name" character varying(200), "blocked" boolean NOT NULL DEFAULT false, "email_verified" boolean NOT NULL DEFAULT false, "last_login_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_cace4a159ff9f2512dd42373760" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "user_organization_page" ON "user"  ("organization_id", "created_at", "id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "user_organization_email" ON "user"  ("organization_id", "email") `);
    await queryRunner.query(
      `CREATE TABLE "access_token" ("hash" bytea NOT NULL, "application_id" uuid NOT NULL, "user_id" uuid NOT NULL, "organization_id" uuid NOT NULL, "code_hash" bytea, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_64c327441248bae40f7d92f34f3" PRIMARY KEY ("hash"))`,
    );
    await queryRunner.query(`CREATE INDEX "access_token_application" ON "access_token"  ("application_id") `);
    await queryRunner.query(`CREATE INDEX "access_token_user" ON "access_token"  ("user_id") `);
    await queryRunner.query(`CREATE INDEX "access_token_code_hash" ON "access_token"  ("code_hash") `);
    await queryRunner.query(
      `CREATE TABLE "api_key" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "organization_id" uuid, "name" character varying(200) NOT NULL, "prefix" character varying(16) NOT NULL, "hash" bytea NOT NULL, "last_used_at" TIMESTAMP(3) WITH TIME ZONE, "revoked_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b1bd840641b8acbaad89c3d8d11" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "api_key_tenant_page" ON "api_key"  ("tenant_id", "created_at", "id") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "api_key_hash" ON "api_key"  ("hash") `);
    await queryRunner.query(
      `CREATE TABLE "authorization_code" ("hash" bytea NOT NULL, "application_id" uuid NOT NULL, "user_id" uuid NOT NULL, "redirect_uri" text NOT NULL, "code_challenge" character varying(128), "auth_time" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8b579dfbed8dab0c4ab36bccc13" PRIMARY KEY ("hash"))`,
    );
    await queryRunner.query(`CREATE INDEX "authorization_code_application" ON "authorization_code"  ("application_id") `);
    await queryRunner.query(`CREATE INDEX "authorization_code_user" ON "authorization_code"  ("user_id") `);
    await queryRunner.query(
      `CREATE TABLE "email_throttle" ("organization_id" uuid NOT NULL, "email" character varying(254) NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "allowed_date" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_attempt_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_12ddb04d0d8dc675b9c6f948f74" PRIMARY KEY ("organization_id", "email"))`,
    );
    await queryRunner.query(`CREATE TYPE "public"."login_attempt_status" AS ENUM('pending', 'completed', 'expired')`);
    await queryRunner.query(
      `CREATE TABLE "login_attempt" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "application_id" uuid NOT NULL, "email" character varying(254) NOT NULL, "token_hash" bytea NOT NULL, "link_token_encrypted" text, "sentence" character varying(200) NOT NULL, "state" character varying(1024) NOT NULL, "redirect_uri" text NOT NULL, "code_challenge" character varying(128), "translations" jsonb, "status" "public"."login_attempt_status" NOT NULL DEFAULT 'pending', "mail_suppressed" boolean NOT NULL DEFAULT false, "request_id" character varying(64), "user_id" uuid, "autologin_walk_hash" bytea, "autologin_remaining" text array, "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP(3) WITH TIME ZONE, "mail_queued_at" TIMESTAMP(3) WITH TIME ZONE, "mail_sent_at" TIMESTAMP(3) WITH TIME ZONE, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_72829cd4f7424e3cdfd46c476c0" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "login_attempt_application" ON "login_attempt"  ("application_id") `);
    await queryRunner.query(
      `CREATE INDEX "login_attempt_organization_email" ON "login_attempt"  ("organization_id", "email", "created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "login_attempt_unsent" ON "login_attempt"  ("expires_at") WHERE status = 'pending' AND mail_sent_at IS NULL AND NOT mail_suppressed`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "login_attempt_live_sentence" ON "login_attempt"  ("sentence") WHERE status = 'pending'`);
    await queryRunner.query(`CREATE UNIQUE INDEX "login_attempt_token_hash" ON "login_attempt"  ("token_hash") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "login_attempt_autologin_walk" ON "login_attempt"  ("autologin_walk_hash") WHERE autologin_walk_hash IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE TABLE "signing_key" ("kid" character varying(64) NOT NULL, "algorithm" character varying(16) NOT NULL, "private_key_encrypted" text NOT NULL, "public_jwk" jsonb NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "retired_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "PK_00d7e305393ab903d6eb06c11f9" PRIMARY KEY ("kid"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "organization" ADD CONSTRAINT "FK_f2bc0a31155aa7f9cbe66844640" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "application" ADD CONSTRAINT "FK_b400f88912e51ec20eda4b401b9" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "user" ADD CONSTRAINT "FK_3e103cdf85b7d6cb620b4db0f0c" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "access_token" ADD CONSTRAINT "FK_b8741db00e961ec2d6919ba7413" FOREIGN KEY ("application_id") REFERENCES "application"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "access_token" ADD CONSTRAINT "FK_4bd9bc00776919370526766eb43" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_key" ADD CONSTRAINT "FK_6101b7dd3373e2cef8f373551de" FOREIGN KEY ("tenant_id") REFERENCES "tenant"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "api_key" ADD CONSTRAINT "FK_f8bf75c998e043dc6ad022d28a8" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "authorization_code" ADD CONSTRAINT "FK_b92e1eb968e1de3424fc5f22d1f" FOREIGN KEY ("application_id") REFERENCES "application"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "authorization_code" ADD CONSTRAINT "FK_e259cc0926bf29f2d053ba4bae5" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "email_throttle" ADD CONSTRAINT "FK_1da136907433f47ad1135114124" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "login_attempt" ADD CONSTRAINT "FK_b7d77b5b760db5ea5532cd35b2e" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "login_attempt" ADD CONSTRAINT "FK_871504079112724351ba17c9f9f" FOREIGN KEY ("application_id") REFERENCES "application"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP CONSTRAINT "FK_871504079112724351ba17c9f9f"`);
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP CONSTRAINT "FK_b7d77b5b760db5ea5532cd35b2e"`);
    await queryRunner.query(`ALTER TABLE "email_throttle" DROP CONSTRAINT "FK_1da136907433f47ad1135114124"`);
    await queryRunner.query(`ALTER TABLE "authorization_code" DROP CONSTRAINT "FK_e259cc0926bf29f2d053ba4bae5"`);
    await queryRunner.query(`ALTER TABLE "authorization_code" DROP CONSTRAINT "FK_b92e1eb968e1de3424fc5f22d1f"`);
    await queryRunner.query(`ALTER TABLE "api_key" DROP CONSTRAINT "FK_f8bf75c998e043dc6ad022d28a8"`);
    await queryRunner.query(`ALTER TABLE "api_key" DROP CONSTRAINT "FK_6101b7dd3373e2cef8f373551de"`);
    await queryRunner.query(`ALTER TABLE "access_token" DROP CONSTRAINT "FK_4bd9bc00776919370526766eb43"`);
    await queryRunner.query(`ALTER TABLE "access_token" DROP CONSTRAINT "FK_b8741db00e961ec2d6919ba7413"`);
    await queryRunner.query(`ALTER TABLE "user" DROP CONSTRAINT "FK_3e103cdf85b7d6cb620b4db0f0c"`);
    await queryRunner.query(`ALTER TABLE "application" DROP CONSTRAINT "FK_b400f88912e51ec20eda4b401b9"`);
    await queryRunner.query(`ALTER TABLE "organization" DROP CONSTRAINT "FK_f2bc0a31155aa7f9cbe66844640"`);
    await queryRunner.query(`DROP TABLE "signing_key"`);
    await queryRunner.query(`DROP INDEX "public"."login_attempt_autologin_walk"`);
    await queryRunner.query(`DROP INDEX "public"."login_attempt_token_hash"`);
    await queryRunner.query(`DROP INDEX "public"."login_attempt_live_sentence"`);
    await queryRunner.query(`DROP INDEX "public"."login_attempt_unsent"`);
    await queryRunner.query(`DROP INDEX "public"."login_attempt_organization_email"`);
    await queryRunner.query(`DROP INDEX "public"."login_attempt_application"`);
    await queryRunner.query(`DROP TABLE "login_attempt"`);
    await queryRunner.query(`DROP TYPE "public"."login_attempt_status"`);
    await queryRunner.query(`DROP TABLE "email_throttle"`);
    await queryRunner.query(`DROP INDEX "public"."authorization_code_user"`);
    await queryRunner.query(`DROP INDEX "public"."authorization_code_application"`);
    await queryRunner.query(`DROP TABLE "authorization_code"`);
    await queryRunner.query(`DROP INDEX "public"."api_key_hash"`);
    await queryRunner.query(`DROP INDEX "public"."api_key_tenant_page"`);
    await queryRunner.query(`DROP TABLE "api_key"`);
    await queryRunner.query(`DROP INDEX "public"."access_token_code_hash"`);
    await queryRunner.query(`DROP INDEX "public"."access_token_user"`);
    await queryRunner.query(`DROP INDEX "public"."access_token_application"`);
    await queryRunner.query(`DROP TABLE "access_token"`);
    await queryRunner.query(`DROP INDEX "public"."user_organization_email"`);
    await queryRunner.query(`DROP INDEX "public"."user_organization_page"`);
    await queryRunner.query(`DROP TABLE "user"`);
    await queryRunner.query(`DROP INDEX "public"."application_client_id"`);
    await queryRunner.query(`DROP INDEX "public"."application_organization_page"`);
    await queryRunner.query(`DROP TABLE "application"`);
    await queryRunner.query(`DROP TYPE "public"."application_type"`);
    await queryRunner.query(`DROP INDEX "public"."organization_tenant_page"`);
    await queryRunner.query(`DROP TABLE "organization"`);
    await queryRunner.query(`DROP TABLE "tenant"`);
    await queryRunner.query(`DROP TYPE "public"."tenant_plan"`);
  }
}
