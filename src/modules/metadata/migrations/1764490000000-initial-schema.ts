import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableIndex } from 'typeorm';

const id = (name = 'id', length = 36): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  isPrimary: true,
});
const str = (name: string, length: number, nullable = false, def?: string): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable: nullable,
  ...(def !== undefined ? { default: `'${def}'` } : {}),
});
const int = (name: string, def?: number): TableColumnOptions => ({
  name,
  type: 'int',
  ...(def !== undefined ? { default: def } : {}),
});
const big = (name: string, nullable = false, def?: number): TableColumnOptions => ({
  name,
  type: 'bigint',
  isNullable: nullable,
  ...(def !== undefined ? { default: def } : {}),
});
const text = (name: string, nullable = true): TableColumnOptions => ({ name, type: 'text', isNullable: nullable });
const bool = (name: string): TableColumnOptions => ({ name, type: 'boolean' });
const idx = (name: string, columnNames: string[], isUnique = false) => new TableIndex({ name, columnNames, isUnique });

/**
 * Every table of docs/data-model.md, written with TypeORM's schema builder so one migration runs on MySQL/MariaDB
 * and on SQLite. All times are BIGINT epoch milliseconds (UTC): no time-zone conversion anywhere.
 */
export class InitialSchema1764490000000 implements MigrationInterface {
  name = 'InitialSchema1764490000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'job_definition',
        columns: [
          id(),
          str('namespace', 64),
          str('code', 128),
          str('description', 255, true),
          str('handler', 128),
          str('trigger_type', 16),
          str('trigger_expr', 255, true),
          str('time_zone', 64, false, 'UTC'),
          text('params'),
          str('routing_strategy', 32),
          str('routing_key', 255, true),
          int('shard_total', 1),
          text('shard_params'),
          str('misfire_policy', 16),
          str('overlap_policy', 16),
          int('max_concurrency', 0),
          int('timeout_ms'),
          int('retry_max', 0),
          int('retry_backoff_ms', 1000),
          str('retry_backoff_kind', 16),
          bool('enabled'),
          str('schedule_state', 16),
          str('schedule_error', 1024, true),
          big('next_fire_time', true),
          big('last_fire_time', true),
          int('version'),
          big('created_at'),
          big('updated_at'),
          str('created_by', 64, true),
          str('updated_by', 64, true),
        ],
        indices: [
          idx('uq_job_definition_ns_code', ['namespace', 'code'], true),
          idx('ix_job_definition_due', ['enabled', 'next_fire_time']),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'job_instance',
        columns: [
          id(),
          str('namespace', 64),
          str('app_id', 64),
          str('request_id', 128),
          str('request_hash', 64, true),
          str('job_id', 36, true),
          str('job_code', 128, true),
          str('handler', 128),
          big('fire_time'),
          int('shard_index', 0),
          int('shard_total', 1),
          str('trigger_source', 16),
          str('status', 16),
          int('attempt', 1),
          int('max_attempts', 1),
          int('retry_backoff_ms', 1000),
          str('retry_backoff_kind', 16, false, 'FIXED'),
          int('timeout_ms'),
          str('routing_strategy', 32, false, 'ROUND_ROBIN'),
          str('routing_key', 255, true),
          str('node_id', 128, true),
          big('lease_until', true),
          big('fencing_token', false, 0),
          text('params'),
          text('result'),
          text('error'),
          str('trace_id', 64),
          str('callback_url', 2048, true),
          str('callback_status', 16, true),
          big('due_at'),
          big('created_at'),
          big('updated_at'),
          big('dispatched_at', true),
          big('started_at', true),
          big('finished_at', true),
        ],
        indices: [
          idx('uq_job_instance_fire', ['job_id', 'fire_time', 'shard_index'], true),
          idx('uq_job_instance_request', ['app_id', 'request_id'], true),
          idx('ix_job_instance_status_fire', ['status', 'fire_time']),
          idx('ix_job_instance_node_status', ['node_id', 'status']),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'job_attempt',
        columns: [
          id(),
          str('instance_id', 36),
          int('attempt'),
          str('node_id', 128),
          big('fencing_token'),
          str('status', 16),
          big('started_at'),
          big('finished_at', true),
          text('error'),
        ],
        indices: [idx('uq_job_attempt_instance_attempt', ['instance_id', 'attempt'], true)],
      }),
    );
    await q.createTable(
      new Table({
        name: 'executor_node',
        columns: [
          id('node_id', 128),
          str('host', 255),
          text('handlers', false),
          int('capacity'),
          text('labels'),
          big('started_at'),
          big('last_seen_at'),
          big('stopped_at', true),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'callback_delivery',
        columns: [
          id(),
          str('instance_id', 36),
          str('url', 2048),
          int('attempt', 0),
          big('next_attempt_at'),
          { ...int('last_status_code'), isNullable: true },
          str('last_error', 1024, true),
          str('state', 16),
          big('created_at'),
          big('updated_at'),
        ],
        indices: [idx('ix_callback_delivery_due', ['state', 'next_attempt_at'])],
      }),
    );
    await q.createTable(
      new Table({
        name: 'api_client',
        columns: [
          id('app_id', 64),
          str('secret_enc', 512),
          bool('enabled'),
          int('rate_limit', 0),
          text('callback_hosts'),
          big('created_at'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'audit_log',
        columns: [
          id(),
          str('app_id', 64, true),
          str('action', 32),
          str('target_type', 32),
          str('target_id', 128),
          text('before'),
          text('after'),
          big('created_at'),
        ],
        indices: [idx('ix_audit_log_target', ['target_type', 'target_id'])],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'audit_log',
      'api_client',
      'callback_delivery',
      'executor_node',
      'job_attempt',
      'job_instance',
      'job_definition',
    ]) {
      await q.dropTable(t, true);
    }
  }
}
