import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * Long tasks (docs/long-tasks.md): an instance's checkpoint and progress, the heartbeat timeout of jobs and
 * instances, a ONE_SHOT job's completion, an attempt's real end (late completions, overlaps), the handler log
 * table `job_log`, and the index retention deletes by. Raw DDL for added columns: on SQLite TypeORM's
 * addColumn rebuilds the table from a cached shape that an earlier migration in the same run may have changed.
 */
export class LongTasks1799000000000 implements MigrationInterface {
  name = 'LongTasks1799000000000';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.driver.options.type === 'mysql';
    // A checkpoint may be up to CHECKPOINT_MAX_BYTES (at most 1 MiB); TEXT stops at 64 KiB on MySQL.
    const bigText = mysql ? 'mediumtext' : 'text';
    const add = (table: string, col: string) => q.query(`ALTER TABLE ${table} ADD COLUMN ${col}`);
    await add('job_instance', `checkpoint ${bigText} NULL`);
    await add('job_instance', 'checkpoint_attempt int NULL');
    await add('job_instance', 'checkpoint_token bigint NULL');
    await add('job_instance', 'checkpoint_at bigint NULL');
    await add('job_instance', 'progress double NULL');
    await add('job_instance', 'progress_note varchar(256) NULL');
    await add('job_instance', 'progress_at bigint NULL');
    await add('job_instance', 'heartbeat_timeout_ms int NOT NULL DEFAULT 0');
    await add('job_definition', 'heartbeat_timeout_ms int NOT NULL DEFAULT 0');
    await add('job_definition', 'completed_at bigint NULL');
    await add('job_attempt', 'handler_ended_at bigint NULL');
    await add('job_attempt', 'late_status varchar(16) NULL');
    await add('job_attempt', 'late_error varchar(1024) NULL');
    await add('job_attempt', `overlaps_previous ${mysql ? 'tinyint' : 'boolean'} NOT NULL DEFAULT 0`);
    await q.query('CREATE INDEX ix_job_instance_finished ON job_instance (finished_at)');
    await q.createTable(
      new Table({
        name: 'job_log',
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
          { name: 'instance_id', type: 'varchar', length: '36' },
          { name: 'attempt', type: 'int' },
          { name: 'node_id', type: 'varchar', length: '128' },
          { name: 'at', type: 'bigint' },
          { name: 'level', type: 'varchar', length: '8' },
          { name: 'line', type: 'text' },
        ],
        indices: [
          new TableIndex({ name: 'ix_job_log_instance', columnNames: ['instance_id', 'id'] }),
          new TableIndex({ name: 'ix_job_log_at', columnNames: ['at'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const mysql = q.connection.driver.options.type === 'mysql';
    await q.dropTable('job_log');
    await q.query(`DROP INDEX ix_job_instance_finished${mysql ? ' ON job_instance' : ''}`);
    const drop = (table: string, col: string) => q.query(`ALTER TABLE ${table} DROP COLUMN ${col}`);
    for (const col of ['overlaps_previous', 'late_error', 'late_status', 'handler_ended_at'])
      await drop('job_attempt', col);
    for (const col of ['completed_at', 'heartbeat_timeout_ms']) await drop('job_definition', col);
    const instanceCols = ['heartbeat_timeout_ms', 'progress_at', 'progress_note', 'progress', 'checkpoint_at'];
    for (const col of [...instanceCols, 'checkpoint_token', 'checkpoint_attempt', 'checkpoint']) {
      await drop('job_instance', col);
    }
  }
}
