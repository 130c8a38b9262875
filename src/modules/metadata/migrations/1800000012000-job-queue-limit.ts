import { MigrationInterface, QueryRunner } from 'typeorm';

/** `job_definition.queue_limit` (docs/data-model.md): every job before gets 10; same DDL on both. */
export class JobQueueLimit1800000012000 implements MigrationInterface {
  name = 'JobQueueLimit1800000012000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_definition ADD COLUMN queue_limit int NOT NULL DEFAULT 10');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_definition DROP COLUMN queue_limit');
  }
}
