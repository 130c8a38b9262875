import { MigrationInterface, QueryRunner } from 'typeorm';

/** `priority` of jobs and instances (docs/dispatch.md "Priorities"), 3 for every row before; same DDL on both. */
export class Priority1800000013000 implements MigrationInterface {
  name = 'Priority1800000013000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_definition ADD COLUMN priority int NOT NULL DEFAULT 3');
    await q.query('ALTER TABLE job_instance ADD COLUMN priority int NOT NULL DEFAULT 3');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_instance DROP COLUMN priority');
    await q.query('ALTER TABLE job_definition DROP COLUMN priority');
  }
}
