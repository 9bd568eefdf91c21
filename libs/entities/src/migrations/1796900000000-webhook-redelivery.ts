// Webhooks, second step: a delivery records when its job was last queued (the dispatcher queues the
// ones that have none, or may have lost theirs with Redis) and how often it was redelivered (each
// redelivery is a job of its own); an endpoint records since when it has been failing, and why it
// was disabled when Sesame disabled it; a login attempt whether its failure was reported; the audit log can name Sesame itself as the actor.
import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookRedelivery1796900000000 implements MigrationInterface {
  name = 'WebhookRedelivery1796900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhook_delivery" ADD "queued_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "webhook_delivery" ADD "redeliveries" integer NOT NULL DEFAULT 0`);
    // The tries before the last redelivery: a round's try number is attempts - round_start + 1.
    await queryRunner.query(`ALTER TABLE "webhook_delivery" ADD "round_start" integer NOT NULL DEFAULT 0`);
    // Deliveries made before this step were queued when they were made.
    await queryRunner.query(`UPDATE "webhook_delivery" SET "queued_at" = "created_at"`);
    await queryRunner.query(
      `CREATE INDEX "webhook_delivery_to_queue" ON "webhook_delivery" ("queued_at", "created_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(`ALTER TABLE "webhook_endpoint" ADD "failing_since" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoint" ADD "last_failure_at" TIMESTAMP(3) WITH TIME ZONE`);
    // login.failed is reported once per attempt, however often its stopped link or code is tried.
    await queryRunner.query(`ALTER TABLE "login_attempt" ADD "failure_reported_at" TIMESTAMP(3) WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoint" ADD "disabled_reason" character varying(32)`);
    await queryRunner.query(`CREATE INDEX "webhook_event_retention" ON "webhook_event" ("created_at")`);
    await queryRunner.query(`ALTER TYPE "public"."audit_actor_type" ADD VALUE IF NOT EXISTS 'sesame'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Postgres cannot drop an enum value: 'sesame' stays, unused.
    await queryRunner.query(`DROP INDEX "public"."webhook_event_retention"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoint" DROP COLUMN "disabled_reason"`);
    await queryRunner.query(`ALTER TABLE "login_attempt" DROP COLUMN "failure_reported_at"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoint" DROP COLUMN "last_failure_at"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoint" DROP COLUMN "failing_since"`);
    await queryRunner.query(`DROP INDEX "public"."webhook_delivery_to_queue"`);
    await queryRunner.query(`ALTER TABLE "webhook_delivery" DROP COLUMN "round_start"`);
    await queryRunner.query(`ALTER TABLE "webhook_delivery" DROP COLUMN "redeliveries"`);
    await queryRunner.query(`ALTER TABLE "webhook_delivery" DROP COLUMN "queued_at"`);
  }
}
