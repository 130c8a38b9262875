import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * The `idempotency_key` table (docs/api.md "Idempotency", docs/data-model.md): one row per Idempotency-Key of
 * an app, unique per (namespace, app_id, idem_key), with the stored answer. A stored body may be large (a
 * backfill's fire times, a sharded trigger's views): MEDIUMTEXT on MySQL, where TEXT stops at 64 KiB.
 */
export class IdempotencyKeys1800000000000 implements MigrationInterface {
  name = 'IdempotencyKeys1800000000000';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.driver.options.type === 'mysql';
    await q.createTable(
      new Table({
        name: 'idempotency_key',
        columns: [
          // SQLite: AUTOINCREMENT only on INTEGER (64-bit there too)
          {
            name: 'id',
            type: mysql ? 'bigint' : 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'namespace', type: 'varchar', length: '64' },
          { name: 'app_id', type: 'varchar', length: '64' },
          { name: 'idem_key', type: 'varchar', length: '255' },
          { name: 'fingerprint', type: 'varchar', length: '64' },
          { name: 'request', type: 'varchar', length: '300' },
          { name: 'state', type: 'varchar', length: '8' },
          { name: 'owner', type: 'varchar', length: '36' },
          { name: 'started_at', type: 'bigint' },
          { name: 'expires_at', type: 'bigint' },
          { name: 'status', type: 'int', isNullable: true },
          { name: 'headers', type: 'text', isNullable: true },
          { name: 'body', type: mysql ? 'mediumtext' : 'text', isNullable: true },
        ],
        indices: [
          new TableIndex({
            name: 'uq_idempotency_key',
            columnNames: ['namespace', 'app_id', 'idem_key'],
            isUnique: true,
          }),
          new TableIndex({ name: 'ix_idempotency_key_expires', columnNames: ['expires_at'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('idempotency_key');
  }
}
