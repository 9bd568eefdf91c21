// Webhooks: a tenant's endpoints, the events written in the transaction of the change they report
// (an outbox the worker turns into deliveries), one delivery per event and endpoint, and every attempt.
import { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1796800000000 implements MigrationInterface {
  name = 'Webhooks1796800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "webhook_endpoint" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "tenant_id" uuid NOT NULL REFERENCES "tenant"("id") ON DELETE CASCADE,
      "organization_id" uuid REFERENCES "organization"("id") ON DELETE CASCADE,
      "url" character varying(2000) NOT NULL,
      "description" character varying(500),
      "event_types" text array NOT NULL DEFAULT '{}',
      "enabled" boolean NOT NULL DEFAULT true,
      "secret_encrypted" text NOT NULL,
      "previous_secret_encrypted" text,
      "previous_secret_expires_at" TIMESTAMP(3) WITH TIME ZONE,
      "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
      "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_webhook_endpoint" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "webhook_endpoint_tenant_page" ON "webhook_endpoint" ("tenant_id", "created_at", "id")`);
    await queryRunner.query(`CREATE TABLE "webhook_event" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "tenant_id" uuid NOT NULL REFERENCES "tenant"("id") ON DELETE CASCADE,
      "organization_id" uuid,
      "endpoint_id" uuid REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE,
      "type" character varying(64) NOT NULL,
      "payload" jsonb NOT NULL,
      "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
      "dispatched_at" TIMESTAMP(3) WITH TIME ZONE,
      CONSTRAINT "PK_webhook_event" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "webhook_event_undispatched" ON "webhook_event" ("created_at") WHERE "dispatched_at" IS NULL`);
    await queryRunner.query(`CREATE INDEX "webhook_event_tenant" ON "webhook_event" ("tenant_id", "created_at")`);
    await queryRunner.query(`CREATE TYPE "public"."webhook_delivery_status" AS ENUM('pending', 'succeeded', 'failed')`);
    await queryRunner.query(`CREATE TABLE "webhook_delivery" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "event_id" uuid NOT NULL REFERENCES "webhook_event"("id") ON DELETE CASCADE,
      "endpoint_id" uuid NOT NULL REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE,
      "status" "public"."webhook_delivery_status" NOT NULL DEFAULT 'pending',
      "attempts" integer NOT NULL DEFAULT 0,
      "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(),
      "finished_at" TIMESTAMP(3) WITH TIME ZONE,
      CONSTRAINT "PK_webhook_delivery" PRIMARY KEY ("id"),
      CONSTRAINT "webhook_delivery_event_endpoint" UNIQUE ("event_id", "endpoint_id"))`);
    await queryRunner.query(`CREATE INDEX "webhook_delivery_endpoint_page" ON "webhook_delivery" ("endpoint_id", "created_at", "id")`);
    await queryRunner.query(`CREATE TABLE "webhook_attempt" (
      "id" uuid NOT NULL DEFAULT gen_random_uuid(),
      "delivery_id" uuid NOT NULL REFERENCES "webhook_delivery"("id") ON DELETE CASCADE,
      "attempted_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL,
      "duration_ms" integer NOT NULL,
      "response_status" integer,
      "response_excerpt" character varying(1024),
      "error" character varying(500),
      CONSTRAINT "PK_webhook_attempt" PRIMARY KEY ("id"))`);
    await queryRunner.query(`CREATE INDEX "webhook_attempt_delivery" ON "webhook_attempt" ("delivery_id", "attempted_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "webhook_attempt"`);
    await queryRunner.query(`DROP TABLE "webhook_delivery"`);
    await queryRunner.query(`DROP TYPE "public"."webhook_delivery_status"`);
    await queryRunner.query(`DROP TABLE "webhook_event"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoint"`);
  }
}
