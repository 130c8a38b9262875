import { MigrationInterface, QueryRunner } from 'typeorm';

/** `job_instance.task_name` (docs/api.md "The design source's shape"), NULL before and for job fires; both DDLs. */
export class InstanceTaskName1800000009000 implements MigrationInterface {
  name = 'InstanceTaskName1800000009000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_instance ADD COLUMN task_name varchar(255) NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE job_instance DROP COLUMN task_name');
  }
}
