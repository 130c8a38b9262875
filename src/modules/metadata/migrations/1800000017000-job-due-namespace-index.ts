import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `ix_job_definition_due` becomes `ix_job_definition_ns_due (namespace, enabled, next_fire_time)` (docs/scaling.md
 * step 1): the leader's page scan and the due detector read only their own namespace's due rows, not every
 * namespace's in the horizon. Same DDL on MySQL/MariaDB and SQLite; `down` puts the old index back.
 */
export class JobDueNamespaceIndex1800000017000 implements MigrationInterface {
  name = 'JobDueNamespaceIndex1800000017000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX ix_job_definition_ns_due ON job_definition (namespace, enabled, next_fire_time)');
    await q.query(`DROP INDEX ix_job_definition_due${this.on(q)}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX ix_job_definition_due ON job_definition (enabled, next_fire_time)');
    await q.query(`DROP INDEX ix_job_definition_ns_due${this.on(q)}`);
  }

  private on(q: QueryRunner): string {
    return q.connection.options.type === 'mysql' ? ' ON job_definition' : '';
  }
}
