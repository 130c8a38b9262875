import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableIndex } from 'typeorm';

const str = (name: string, length: number, nullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable: nullable,
});
const big = (name: string, nullable = false): TableColumnOptions => ({ name, type: 'bigint', isNullable: nullable });
const int = (name: string, def?: number): TableColumnOptions => ({ name, type: 'int', default: def });
const text = (name: string, nullable = false): TableColumnOptions => ({ name, type: 'text', isNullable: nullable });
const index = (name: string, columnNames: string[], isUnique = false) =>
  new TableIndex({ name, columnNames, isUnique });

/**
 * Notifications (docs/notifications.md): the rules, the events they match, the messages (quiet period and
 * grouping) and the per-channel delivery outbox. New tables only; on MySQL the ids tenants choose (app ids,
 * rule names, job codes, handlers) compare byte for byte, as elsewhere.
 */
export class Notifications1800000006000 implements MigrationInterface {
  name = 'Notifications1800000006000';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.driver.options.type === 'mysql';
    await q.createTable(
      new Table({
        name: 'notification_rule',
        columns: [
          { ...str('id', 36), isPrimary: true },
          str('namespace', 64),
          str('app_id', 64),
          str('name', 100),
          str('kind', 32),
          str('job_code', 128, true),
          str('handler', 128, true),
          text('params'),
          text('channels'),
          int('quiet_ms'),
          str('group_by', 16),
          { name: 'enabled', type: 'boolean', default: true },
          big('created_at'),
          big('updated_at'),
        ],
        indices: [index('uq_notification_rule_name', ['namespace', 'app_id', 'name'], true)],
      }),
    );
    await q.createTable(
      new Table({
        name: 'notification_event',
        columns: [
          { ...str('id', 36), isPrimary: true },
          str('namespace', 64),
          str('app_id', 64),
          str('kind', 32),
          str('dedup_key', 255),
          str('instance_id', 36, true),
          str('rule_id', 36, true),
          text('data', true),
          big('at'),
          str('claim', 36, true),
          big('lease_until', true),
          big('processed_at', true),
          big('created_at'),
        ],
        indices: [
          index('uq_notification_event_dedup', ['namespace', 'dedup_key'], true),
          index('ix_notification_event_todo', ['namespace', 'processed_at', 'created_at']),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'notification',
        columns: [
          { ...str('id', 36), isPrimary: true },
          str('namespace', 64),
          str('app_id', 64),
          str('rule_id', 36, true),
          str('rule_name', 100),
          str('kind', 32),
          str('group_key', 300),
          str('open_key', 64, true),
          str('state', 16),
          str('title', 300),
          text('events'),
          int('event_count'),
          big('first_event_at'),
          big('last_event_at'),
          big('send_at'),
          text('channels'),
          big('sent_at', true),
          big('created_at'),
          big('updated_at'),
        ],
        indices: [
          index('uq_notification_open', ['open_key'], true),
          index('ix_notification_due', ['namespace', 'state', 'send_at']),
          index('ix_notification_group', ['namespace', 'app_id', 'rule_name', 'group_key', 'send_at']),
          index('ix_notification_app', ['namespace', 'app_id', 'created_at']),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'notification_delivery',
        columns: [
          { ...str('id', 36), isPrimary: true },
          str('namespace', 64),
          str('app_id', 64),
          str('notification_id', 36),
          int('channel_index'),
          str('channel_type', 16),
          str('target', 2048),
          str('state', 16),
          int('attempts', 0),
          big('next_attempt_at'),
          str('claim', 36, true),
          big('lease_until', true),
          { name: 'last_status_code', type: 'int', isNullable: true },
          str('last_error', 1024, true),
          big('delivered_at', true),
          big('created_at'),
          big('updated_at'),
        ],
        indices: [
          index('uq_notification_delivery_channel', ['notification_id', 'channel_index'], true),
          index('ix_notification_delivery_due', ['namespace', 'state', 'next_attempt_at']),
          index('ix_notification_delivery_app', ['namespace', 'app_id', 'created_at']),
        ],
      }),
    );
    if (mysql) {
      const bin = (col: string, len: number, nul = false) =>
        `MODIFY ${col} varchar(${len}) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin ${nul ? 'NULL' : 'NOT NULL'}`;
      await q.query(
        `ALTER TABLE notification_rule ${bin('app_id', 64)}, ${bin('name', 100)}, ${bin('job_code', 128, true)},` +
          ` ${bin('handler', 128, true)}`,
      );
      await q.query(`ALTER TABLE notification_event ${bin('app_id', 64)}, ${bin('dedup_key', 255)}`);
      await q.query(
        `ALTER TABLE notification ${bin('app_id', 64)}, ${bin('rule_name', 100)}, ${bin('group_key', 300)}`,
      );
      await q.query(`ALTER TABLE notification_delivery ${bin('app_id', 64)}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['notification_delivery', 'notification', 'notification_event', 'notification_rule'])
      await q.dropTable(t);
  }
}
