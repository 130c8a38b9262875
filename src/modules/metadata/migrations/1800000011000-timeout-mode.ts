import { MigrationInterface, QueryRunner } from 'typeorm';

/** `timeout_mode` (`HARD`, every row before, or `HEARTBEAT`) of jobs and instances (docs/long-tasks.md). */
export class TimeoutMode1800000011000 implements MigrationInterface {
  name = 'TimeoutMode1800000011000';

  async up(q: QueryRunner): Promise<void> {
    await q.query("ALTER TABLE job_instance ADD COLUMN timeout_mode varchar(16) NOT NULL DEFAULT 'HARD'");
    await q.query("ALTER TABLE job_definition ADD COLUMN timeout_mode varchar(16) NOT NULL DEFAULT 'HARD'");
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_definition DROP COLUMN timeout_mode');
    await q.query('ALTER TABLE job_instance DROP COLUMN timeout_mode');
  }
}
