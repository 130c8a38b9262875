import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `job_definition.paused_reason`: why the system paused a job (`CLIENT_DISABLED`: its owner's client was disabled,
 * docs/tenancy.md "Disabled clients"); NULL, every row before, is a job the system did not pause. `paused_at` (epoch
 * ms): when it did, so the enable hands the fires missed since to the job's misfire policy. Same DDL on both.
 */
export class JobPausedReason1800000007000 implements MigrationInterface {
  name = 'JobPausedReason1800000007000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_definition ADD COLUMN paused_reason varchar(32) NULL');
    await q.query('ALTER TABLE job_definition ADD COLUMN paused_at bigint NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_definition DROP COLUMN paused_at');
    await q.query('ALTER TABLE job_definition DROP COLUMN paused_reason');
  }
}
