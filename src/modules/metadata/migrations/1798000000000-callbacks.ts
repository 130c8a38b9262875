import { MigrationInterface, QueryRunner, Table, TableColumn, TableColumnOptions, TableIndex } from 'typeorm';

const str = (name: string, length: number, nullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable: nullable,
});
const big = (name: string, nullable = false): TableColumnOptions => ({ name, type: 'bigint', isNullable: nullable });
const int = (name: string, def: number): TableColumnOptions => ({ name, type: 'int', default: def });

/**
 * Result callbacks (docs/callbacks.md): the outbox `callback_delivery` (never written before, so rebuilt whole),
 * per-host state `callback_host`, per-app registrations `callback_registration`, a job's own `callback_url`.
 * The instance's `callback_status` goes: the view reads the delivery row, so the status has one home.
 */
export class Callbacks1798000000000 implements MigrationInterface {
  name = 'Callbacks1798000000000';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.driver.options.type === 'mysql';
    await q.dropTable('callback_delivery');
    await q.createTable(
      new Table({
        name: 'callback_delivery',
        columns: [
          { ...str('id', 36), isPrimary: true },
          str('instance_id', 36),
          str('app_id', 64),
          str('url', 2048),
          str('host', 300),
          str('state', 16),
          int('attempts', 0),
          big('next_attempt_at'),
          str('claim', 36, true),
          big('lease_until', true),
          { name: 'last_status_code', type: 'int', isNullable: true },
          str('last_error', 1024, true),
          big('final_at'),
          big('delivered_at', true),
          big('created_at'),
          big('updated_at'),
        ],
        indices: [
          new TableIndex({ name: 'uq_callback_delivery_instance', columnNames: ['instance_id'], isUnique: true }),
          new TableIndex({ name: 'ix_callback_delivery_due', columnNames: ['state', 'next_attempt_at'] }),
          new TableIndex({ name: 'ix_callback_delivery_claim', columnNames: ['claim'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'callback_host',
        columns: [
          { ...str('host', 300), isPrimary: true },
          int('consecutive_failures', 0),
          big('down_since', true),
          big('next_probe_at', true),
          int('probes', 0),
          str('last_error', 1024, true),
          str('last_app_id', 64, true),
          big('updated_at'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'callback_registration',
        columns: [
          { ...str('app_id', 64), isPrimary: true },
          { ...str('handler', 128), isPrimary: true },
          str('url', 2048),
          big('created_at'),
          big('updated_at'),
        ],
      }),
    );
    await q.addColumn('job_definition', new TableColumn(str('callback_url', 2048, true)));
    await q.dropColumn('job_instance', 'callback_status');
    if (mysql) {
      const bin = (col: string, len: number) =>
        `MODIFY ${col} varchar(${len}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL`;
      await q.query(`ALTER TABLE callback_delivery ${bin('app_id', 64)}`);
      await q.query(`ALTER TABLE callback_registration ${bin('app_id', 64)}, ${bin('handler', 128)}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.addColumn('job_instance', new TableColumn(str('callback_status', 16, true)));
    await q.dropColumn('job_definition', 'callback_url');
    await q.dropTable('callback_registration');
    await q.dropTable('callback_host');
    await q.dropTable('callback_delivery');
    await q.createTable(
      new Table({
        name: 'callback_delivery',
        columns: [
          { ...str('id', 36), isPrimary: true },
          str('instance_id', 36),
          str('url', 2048),
          int('attempt', 0),
          big('next_attempt_at'),
          { name: 'last_status_code', type: 'int', isNullable: true },
          str('last_error', 1024, true),
          str('state', 16),
          big('created_at'),
          big('updated_at'),
        ],
        indices: [new TableIndex({ name: 'ix_callback_delivery_due', columnNames: ['state', 'next_attempt_at'] })],
      }),
    );
  }
}
