// New login attempts get time-ordered ids: UUID version 7 (RFC 9562 §5.7), 48 bits of Unix time in
// milliseconds, then the version, the variant and 74 random bits. A login inserts its attempt at the
// right edge of the primary key instead of on a random page of it: at millions of attempts that is
// one page fewer read, dirtied and written whole to the WAL after each checkpoint, per login.
// Postgres 18 has uuidv7() built in; this function does the same on Postgres 13–17.
import { MigrationInterface, QueryRunner } from 'typeorm';

export class OrderedLoginAttemptIds1796600000001 implements MigrationInterface {
  name = 'OrderedLoginAttemptIds1796600000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION "uuid_v7"() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
            SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                     PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
        $$`);
    await queryRunner.query(`ALTER TABLE "login_attempt" ALTER COLUMN "id" SET DEFAULT uuid_v7()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "login_attempt" ALTER COLUMN "id" SET DEFAULT gen_random_uuid()`);
    await queryRunner.query(`DROP FUNCTION "uuid_v7"()`);
  }
}
