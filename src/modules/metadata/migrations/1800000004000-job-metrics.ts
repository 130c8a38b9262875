import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `job_definition.metrics_slot` and its unique index per namespace (docs/observability.md "Job runs"); NULL, every
 * row before, is metrics off and never collides on MySQL/MariaDB or SQLite. Same DDL on both.
 */
export class JobMetrics1800000004000 implements MigrationInterface {
  name = 'JobMetrics1800000004000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_definition ADD COLUMN metrics_slot int NULL');
    await q.query('CREATE UNIQUE INDEX uq_job_definition_ns_metrics_slot ON job_definition (namespace, metrics_slot)');
  }

  async down(q: QueryRunner): Promise<void> {
    const mysql = q.connection.options.type === 'mysql';
    await q.query(`DROP INDEX uq_job_definition_ns_metrics_slot${mysql ? ' ON job_definition' : ''}`);
    await q.query('ALTER TABLE job_definition DROP COLUMN metrics_slot');
  }
}
