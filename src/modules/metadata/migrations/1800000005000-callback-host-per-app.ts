import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';

/**
 * Host health per app (docs/callbacks.md "Hosts marked down"): `callback_host` keyed by (namespace, app_id, host),
 * with the delivery kept as the probe. Soft state (failure counts, probe times): rebuilt, as 1798000001000 did.
 * `ix_callback_delivery_app_host` serves the per-app host queries (fail fast, probes, redeliver by host).
 */
export class CallbackHostPerApp1800000005000 implements MigrationInterface {
  name = 'CallbackHostPerApp1800000005000';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.driver.options.type === 'mysql';
    await q.dropTable('callback_host');
    await q.createTable(hostTable(mysql, true));
    await q.query('CREATE INDEX ix_callback_host_down ON callback_host (namespace, down_since)');
    await q.query(
      'CREATE INDEX ix_callback_delivery_app_host ON callback_delivery (app_id, host, namespace, state, updated_at)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const mysql = q.connection.driver.options.type === 'mysql';
    await q.query(`DROP INDEX ix_callback_delivery_app_host${mysql ? ' ON callback_delivery' : ''}`);
    await q.dropTable('callback_host');
    await q.createTable(hostTable(mysql, false));
  }
}

function hostTable(mysql: boolean, perApp: boolean): Table {
  const str = (name: string, length: number, nullable = false): TableColumnOptions => ({
    name,
    type: 'varchar',
    length: String(length),
    isNullable: nullable,
  });
  const big = (name: string, nullable = false) => ({ name, type: 'bigint', isNullable: nullable });
  // App ids compare as bytes on MySQL, as callback_delivery.app_id does (1798000000000).
  const appId = {
    ...str('app_id', 64),
    isPrimary: true,
    ...(mysql ? { charset: 'utf8mb4', collation: 'utf8mb4_bin' } : {}),
  };
  return new Table({
    name: 'callback_host',
    columns: [
      { ...str('namespace', 64), isPrimary: true },
      ...(perApp ? [appId] : []),
      { ...str('host', 300), isPrimary: true },
      { name: 'consecutive_failures', type: 'int', default: 0 },
      big('down_since', true),
      big('next_probe_at', true),
      { name: 'probes', type: 'int', default: 0 },
      ...(perApp ? [str('probe_id', 36, true)] : []),
      str('last_error', 1024, true),
      ...(perApp ? [] : [str('last_app_id', 64, true)]),
      big('updated_at'),
    ],
  });
}
