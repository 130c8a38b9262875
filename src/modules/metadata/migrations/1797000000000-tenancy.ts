import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

/** Scopes every client had in effect before scopes existed (all but `admin` and `shell`). */
const FORMER_SCOPES = ['tasks:read', 'tasks:write', 'jobs:read', 'jobs:write', 'nodes:read'];

/**
 * Tenancy (docs/tenancy.md): jobs get an owner (`app_id` from `created_by`, codes unique per app); clients get
 * scopes (existing ones keep what they could do, `shell` if they own a shell job, the standalone client `admin`
 * too) and limits; audit_log a namespace; an (app_id, status) index for the unfinished-task cap. MySQL: app
 * ids, request ids and job codes compare in a binary collation (a case- or accent-variant is another id).
 */
export class Tenancy1797000000000 implements MigrationInterface {
  name = 'Tenancy1797000000000';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.driver.options.type === 'mysql';
    await q.addColumn(
      'job_definition',
      new TableColumn({ name: 'app_id', type: 'varchar', length: '64', default: "''" }),
    );
    await q.query(`UPDATE job_definition SET app_id = COALESCE(created_by, '')`);
    await q.dropIndex('job_definition', 'uq_job_definition_ns_code');
    await q.createIndex(
      'job_definition',
      new TableIndex({
        name: 'uq_job_definition_ns_app_code',
        columnNames: ['namespace', 'app_id', 'code'],
        isUnique: true,
      }),
    );

    await q.addColumns('api_client', [
      new TableColumn({ name: 'scopes', type: 'text', isNullable: true }),
      new TableColumn({ name: 'rate_burst', type: 'int', isNullable: true }),
      new TableColumn({ name: 'max_jobs', type: 'int', isNullable: true }),
      new TableColumn({ name: 'max_unfinished_tasks', type: 'int', isNullable: true }),
      new TableColumn({ name: 'egress_allow', type: 'text', isNullable: true }),
      new TableColumn({ name: 'updated_at', type: 'bigint', isNullable: true }),
    ]);
    await q.changeColumn(
      'api_client',
      'rate_limit',
      new TableColumn({ name: 'rate_limit', type: 'int', isNullable: true }),
    );
    await q.query('UPDATE api_client SET rate_limit = NULL WHERE rate_limit = 0');
    const clients: Array<{ app_id: string }> = await q.query('SELECT app_id FROM api_client');
    const shellOwners = new Set(
      (
        (await q.query(`SELECT DISTINCT app_id FROM job_definition WHERE handler = 'shell'`)) as Array<{
          app_id: string;
        }>
      ).map((r) => r.app_id),
    );
    for (const { app_id: appId } of clients) {
      const owner = !mysql && appId === 'standalone';
      const scopes = [
        ...FORMER_SCOPES,
        ...(shellOwners.has(appId) || owner ? ['shell'] : []),
        ...(owner ? ['admin'] : []),
      ];
      await q.query('UPDATE api_client SET scopes = ? WHERE app_id = ?', [JSON.stringify(scopes), appId]);
    }

    await q.addColumn(
      'audit_log',
      new TableColumn({ name: 'namespace', type: 'varchar', length: '64', default: "''" }),
    );
    await q.createIndex(
      'audit_log',
      new TableIndex({
        name: 'ix_audit_log_ns_time',
        columnNames: ['namespace', 'created_at'],
      }),
    );
    await q.createIndex(
      'job_instance',
      new TableIndex({
        name: 'ix_job_instance_app_status',
        columnNames: ['app_id', 'status'],
      }),
    );

    if (mysql) {
      const bin = (col: string, len: number, nullable = false) =>
        `MODIFY ${col} varchar(${len}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin ${nullable ? 'NULL' : 'NOT NULL'}`;
      await q.query(`ALTER TABLE api_client ${bin('app_id', 64)}`);
      await q.query(`ALTER TABLE job_definition ${bin('app_id', 64)} DEFAULT '', ${bin('code', 128)}`);
      await q.query(`ALTER TABLE job_instance ${bin('app_id', 64)}, ${bin('request_id', 128)}`);
      await q.query(`ALTER TABLE audit_log ${bin('app_id', 64, true)}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    const mysql = q.connection.driver.options.type === 'mysql';
    if (mysql) {
      const ci = (col: string, len: number, nullable = false) =>
        `MODIFY ${col} varchar(${len}) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci ${
          nullable ? 'NULL' : 'NOT NULL'
        }`;
      await q.query(`ALTER TABLE api_client ${ci('app_id', 64)}`);
      await q.query(`ALTER TABLE job_definition ${ci('app_id', 64)} DEFAULT '', ${ci('code', 128)}`);
      await q.query(`ALTER TABLE job_instance ${ci('app_id', 64)}, ${ci('request_id', 128)}`);
      await q.query(`ALTER TABLE audit_log ${ci('app_id', 64, true)}`);
    }
    await q.dropIndex('job_instance', 'ix_job_instance_app_status');
    await q.dropIndex('audit_log', 'ix_audit_log_ns_time');
    await q.dropColumn('audit_log', 'namespace');
    await q.query('UPDATE api_client SET rate_limit = 0 WHERE rate_limit IS NULL');
    await q.changeColumn('api_client', 'rate_limit', new TableColumn({ name: 'rate_limit', type: 'int', default: 0 }));
    for (const c of ['updated_at', 'egress_allow', 'max_unfinished_tasks', 'max_jobs', 'rate_burst', 'scopes'])
      await q.dropColumn('api_client', c);
    await q.dropIndex('job_definition', 'uq_job_definition_ns_app_code');
    await q.createIndex(
      'job_definition',
      new TableIndex({
        name: 'uq_job_definition_ns_code',
        columnNames: ['namespace', 'code'],
        isUnique: true,
      }),
    );
    await q.dropColumn('job_definition', 'app_id');
  }
}
