import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Per-app shell identities (docs/tenancy.md "Shell isolation"): `shell_identity` records the uid (and gid) each
 * app's `shell` commands run as, one row per app id (clients are shared by every namespace, so is the row). The
 * unique `uid` is what keeps two executors racing for two apps from giving both one uid. Rows are never deleted.
 */
export class ShellIdentity1800000008000 implements MigrationInterface {
  name = 'ShellIdentity1800000008000';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.driver.options.type === 'mysql';
    await q.createTable(
      new Table({
        name: 'shell_identity',
        columns: [
          // App ids compare as bytes on MySQL, as api_client.app_id does (1797000000000).
          {
            name: 'app_id',
            type: 'varchar',
            length: '64',
            isPrimary: true,
            ...(mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {}),
          },
          { name: 'uid', type: 'int' },
          { name: 'created_at', type: 'bigint' },
        ],
        uniques: [{ name: 'uq_shell_identity_uid', columnNames: ['uid'] }],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('shell_identity');
  }
}
