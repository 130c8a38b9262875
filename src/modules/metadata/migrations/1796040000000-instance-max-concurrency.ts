import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * job_instance.max_concurrency: the job's maxConcurrency copied onto each instance (as timeout_ms and the
 * retry settings are), so dispatch can apply the limit without reading the job definition on its hot
 * path (docs/admission.md). 0 = no limit. Existing rows get 0.
 */
export class InstanceMaxConcurrency1796040000000 implements MigrationInterface {
  name = 'InstanceMaxConcurrency1796040000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('job_instance', new TableColumn({ name: 'max_concurrency', type: 'int', default: 0 }));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('job_instance', 'max_concurrency');
  }
}
