import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `executor_node.app_id` (docs/workers.md): the app owning an app worker's node; NULL for a trusted executor, so
 * every row written before stays a trusted executor's. Same DDL on MySQL/MariaDB and SQLite.
 */
export class WorkerNodeApp1800000003000 implements MigrationInterface {
  name = 'WorkerNodeApp1800000003000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE executor_node ADD COLUMN app_id varchar(64) NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE executor_node DROP COLUMN app_id');
  }
}
