// Passkeys (WebAuthn): an organization's policy, the passkeys of its users, and the one-time
// challenges of their ceremonies; a login attempt records the passkey that completed it, and the
// audit log can name a user as the actor (a user registers their own passkey on the hosted page).
import { MigrationInterface, QueryRunner } from 'typeorm';

export class Passkeys1797000000000 implements MigrationInterface {
  name = 'Passkeys1797000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TYPE "public"."organization_passkeys" AS ENUM('off', 'offered', 'required')`);
    await queryRunner.query(`ALTER TABLE "organization" ADD "passkeys" "public"."organization_passkeys" NOT NULL DEFAULT 'offered'`);
    await queryRunner.query(`CREATE TYPE "public"."passkey_device_type" AS ENUM('singleDevice', 'multiDevice')`);
    await queryRunner.query(
      `CREATE TABLE "passkey" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "organization_id" uuid NOT NULL, "user_id" uuid NOT NULL,
        "credential_id" bytea NOT NULL, "public_key" bytea NOT NULL, "sign_count" bigint NOT NULL DEFAULT 0,
        "device_type" "public"."passkey_device_type" NOT NULL, "backed_up" boolean NOT NULL, "transports" text array NOT NULL DEFAULT '{}',
        "name" character varying(100) NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
        "last_used_at" TIMESTAMP(3) WITH TIME ZONE,
        CONSTRAINT "passkey_pkey" PRIMARY KEY ("id"),
        CONSTRAINT "passkey_organization" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE,
        CONSTRAINT "passkey_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE)`,
    );
    // A credential id names one passkey, whoever registered it.
    await queryRunner.query(`CREATE UNIQUE INDEX "passkey_credential_id" ON "passkey" ("credential_id")`);
    await queryRunner.query(`CREATE INDEX "passkey_user_created" ON "passkey" ("user_id", "created_at")`);
    await queryRunner.query(`CREATE TYPE "public"."passkey_challenge_purpose" AS ENUM('authentication', 'registration')`);
    await queryRunner.query(
      `CREATE TABLE "passkey_challenge" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "purpose" "public"."passkey_challenge_purpose" NOT NULL,
        "organization_id" uuid NOT NULL, "application_id" uuid NOT NULL, "user_id" uuid, "login_attempt_id" uuid,
        "binding" bytea NOT NULL, "challenge" character varying(128),
        "expires_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP(3) WITH TIME ZONE,
        "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "passkey_challenge_pkey" PRIMARY KEY ("id"),
        CONSTRAINT "passkey_challenge_organization" FOREIGN KEY ("organization_id") REFERENCES "organization"("id") ON DELETE CASCADE,
        CONSTRAINT "passkey_challenge_application" FOREIGN KEY ("application_id") REFERENCES "application"("id") ON DELETE CASCADE,
        CONSTRAINT "passkey_challenge_user" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE,
        CONSTRAINT "passkey_challenge_login_attempt" FOREIGN KEY ("login_attempt_id") REFERENCES "login_attempt"("id") ON DELETE CASCADE,
        CONSTRAINT "passkey_challenge_registration" CHECK ("purpose" = 'authentication' OR ("user_id" IS NOT NULL AND "login_attempt_id" IS NOT NULL)))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "passkey_challenge_challenge" ON "passkey_challenge" ("challenge") WHERE "challenge" IS NOT NULL`,
    );
    // Retention deletes expired challenges by age.
    await queryRunner.query(`CREATE INDEX "passkey_challenge_expires_at" ON "passkey_challenge" ("expires_at")`);
    await queryRunner.query(
      `ALTER TABLE "login_attempt" ADD "passkey_id" uuid CONSTRAINT "login_attempt_passkey" REFERENCES "passkey"("id") ON DELETE SET NULL`,
    );
    await queryRunner.query(`CREATE INDEX "login_attempt_passkey" ON "login_attempt" ("passkey_id") WHERE "passkey_id" IS NOT NULL`);
    await queryRunner.query(`ALTER TYPE "public"."audit_actor_type" ADD VALUE IF NOT EXISTS 'user'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Postgres cannot drop an enum value: 'user' stays, unused.
    await queryRunner.query(`DROP INDEX "public"."login_attempt_passkey"`);
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP COLUMN "passkey_id"`);
    await queryRunner.query(`DROP TABLE "passkey_challenge"`);
    await queryRunner.query(`DROP TYPE "public"."passkey_challenge_purpose"`);
    await queryRunner.query(`DROP TABLE "passkey"`);
    await queryRunner.query(`DROP TYPE "public"."passkey_device_type"`);
    await queryRunner.query(`ALTER TABLE "organization" DROP COLUMN "passkeys"`);
    await queryRunner.query(`DROP TYPE "public"."organization_passkeys"`);
  }
}
