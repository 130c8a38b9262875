import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `job_instance.staged` (instances/staged.ts): the staged state as a column instead of equalities of other columns.
 * Rows the previous version staged keep their state: they are marked by that version's own inference, so an
 * upgrade neither takes back nor forgets a staged row in flight. Raw DDL, as in LongTasks1799000000000.
 */
export class InstanceStaged1800000002000 implements MigrationInterface {
  name = 'InstanceStaged1800000002000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_instance ADD COLUMN staged varchar(8) NULL');
    const unstarted = "attempt = 1 AND started_at IS NULL AND status IN ('PENDING', 'DISPATCHED')";
    // A fire written ahead of its time by a firing page: PENDING, or DISPATCHED at its fire time.
    await q.query(
      `UPDATE job_instance SET staged = 'FIRE' WHERE trigger_source = 'SCHEDULE' AND ${unstarted}
         AND created_at < fire_time AND due_at = fire_time
         AND (status = 'PENDING' OR dispatched_at = fire_time)`,
    );
    // A delayed row the pump wrote DISPATCHED ahead of its due time; a fire due at its fire time is not one.
    await q.query(
      `UPDATE job_instance SET staged = 'DELAYED' WHERE staged IS NULL AND status = 'DISPATCHED'
         AND started_at IS NULL AND dispatched_at = due_at AND due_at > created_at
         AND (trigger_source <> 'SCHEDULE' OR due_at <> fire_time)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_instance DROP COLUMN staged');
  }
}
