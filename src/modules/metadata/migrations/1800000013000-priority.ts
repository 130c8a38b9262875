import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Priorities (docs/dispatch.md "Priorities"): `priority` of a job (copied to its instances) and of an instance, 1
 * (lowest) to 5 (highest), 3 for every row before. No index: the two MySQL reads that order by it (forgotten
 * PENDING rows, a job's next WAITING row) sort rows they already filter. Same DDL on both.
 */
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
