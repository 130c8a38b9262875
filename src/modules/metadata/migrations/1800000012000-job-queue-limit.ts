import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `job_definition.queue_limit`: the most WAITING fires a QUEUE job keeps (docs/trigger.md "Overlap"); every job
 * before gets the default 10. Rows already queued beyond it stay and run; new fires are skipped until the queue is
 * below the limit. Same DDL on both.
 */
export class JobQueueLimit1800000012000 implements MigrationInterface {
  name = 'JobQueueLimit1800000012000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_definition ADD COLUMN queue_limit int NOT NULL DEFAULT 10');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_definition DROP COLUMN queue_limit');
  }
}
