import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * Index (job_id, status, lease_until) on job_instance for the reads by job and status when firing and releasing
 * (overlap decisions, WAITING release, a semaphore's rebuild); without it each read scans every row of the job.
 */
export class InstanceJobStatusIndex1796070000000 implements MigrationInterface {
  name = 'InstanceJobStatusIndex1796070000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createIndex(
      'job_instance',
      new TableIndex({
        name: 'ix_job_instance_job_status',
        columnNames: ['job_id', 'status', 'lease_until'],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('job_instance', 'ix_job_instance_job_status');
  }
}
