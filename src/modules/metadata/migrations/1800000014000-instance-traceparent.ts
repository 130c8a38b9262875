import { MigrationInterface, QueryRunner } from 'typeorm';

/** `job_instance.traceparent` (docs/observability.md "Tracing"); NULL on older rows. Same DDL on both. */
export class InstanceTraceparent1800000014000 implements MigrationInterface {
  name = 'InstanceTraceparent1800000014000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_instance ADD COLUMN traceparent varchar(55) NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_instance DROP COLUMN traceparent');
  }
}
