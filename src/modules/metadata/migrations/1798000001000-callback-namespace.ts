import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Callbacks per namespace (docs/callbacks.md "Sender"): deployments that share a database send only their own
 * deliveries and keep their own view of hosts marked down. `callback_host` holds only soft state (failure
 * counts, probe times), so it is rebuilt with `(namespace, host)` as its key.
 */
export class CallbackNamespace1798000001000 implements MigrationInterface {
  name = 'CallbackNamespace1798000001000';

  async up(q: QueryRunner): Promise<void> {
    // Raw DDL: on SQLite, TypeORM's cached shape of callback_delivery still holds the one the previous
    // migration dropped, and its addColumn (a table rebuild) would copy columns that are gone.
    await q.query(`ALTER TABLE callback_delivery ADD COLUMN namespace varchar(64) NOT NULL DEFAULT ''`);
    await q.query(
      'UPDATE callback_delivery SET namespace = COALESCE((SELECT i.namespace FROM job_instance i' +
        ' WHERE i.id = callback_delivery.instance_id), ?)',
      [''],
    );
    const mysql = q.connection.driver.options.type === 'mysql';
    await q.query(`DROP INDEX ix_callback_delivery_due${mysql ? ' ON callback_delivery' : ''}`);
    await q.query('CREATE INDEX ix_callback_delivery_ns_due ON callback_delivery (namespace, state, next_attempt_at)');
    await q.dropTable('callback_host');
    await q.createTable(hostTable(true));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('callback_host');
    await q.createTable(hostTable(false));
    const mysql = q.connection.driver.options.type === 'mysql';
    await q.query(`DROP INDEX ix_callback_delivery_ns_due${mysql ? ' ON callback_delivery' : ''}`);
    await q.query('CREATE INDEX ix_callback_delivery_due ON callback_delivery (state, next_attempt_at)');
    await q.query('ALTER TABLE callback_delivery DROP COLUMN namespace');
  }
}

function hostTable(namespaced: boolean): Table {
  const str = (name: string, length: number, nullable = false) => ({
    name,
    type: 'varchar',
    length: String(length),
    isNullable: nullable,
  });
  const big = (name: string, nullable = false) => ({ name, type: 'bigint', isNullable: nullable });
  return new Table({
    name: 'callback_host',
    columns: [
      ...(namespaced ? [{ ...str('namespace', 64), isPrimary: true }] : []),
      { ...str('host', 300), isPrimary: true },
      { name: 'consecutive_failures', type: 'int', default: 0 },
      big('down_since', true),
      big('next_probe_at', true),
      { name: 'probes', type: 'int', default: 0 },
      str('last_error', 1024, true),
      str('last_app_id', 64, true),
      big('updated_at'),
    ],
  });
}
