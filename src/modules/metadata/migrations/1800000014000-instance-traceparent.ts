import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `job_instance.traceparent`: the W3C trace context the instance's work continues (docs/observability.md "Tracing").
 * NULL, every row before, reads as a context over the row's `trace_id`. Same DDL on both.
 */
export class InstanceTraceparent1800000014000 implements MigrationInterface {
  name = 'InstanceTraceparent1800000014000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_instance ADD COLUMN traceparent varchar(55) NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_instance DROP COLUMN traceparent');
  }
}
