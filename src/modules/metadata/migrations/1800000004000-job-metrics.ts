import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `job_definition.metrics_slot` (docs/observability.md "Job runs"): a job that opted in to per-job metrics holds one
 * of its namespace's JOB_METRICS_MAX slots, unique per namespace (`uq_job_definition_ns_metrics_slot`), so the bound
 * holds whatever opt-ins run at once; NULL (every row written before) is a job that did not opt in, and NULLs never
 * collide in a unique index on MySQL/MariaDB or SQLite. Same DDL on both.
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
