import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * `job_shard_assignment` (docs/dispatch.md "Shard placement"): the node each shard of a SHARDING_BROADCAST job runs
 * on now, one row per (job_id, shard_index). `target_node_id` is set while the shard is marked for resharding
 * (`state` MARKED), `moved_at`/`moved_fire` (epoch ms) say when its last move happened and for which fire time.
 * Same DDL on both; rows of a deleted job are deleted with it.
 */
export class JobShardAssignment1800000010000 implements MigrationInterface {
  name = 'JobShardAssignment1800000010000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'job_shard_assignment',
        columns: [
          { name: 'job_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'shard_index', type: 'int', isPrimary: true },
          { name: 'node_id', type: 'varchar', length: '128' },
          { name: 'target_node_id', type: 'varchar', length: '128', isNullable: true },
          { name: 'state', type: 'varchar', length: '16' },
          { name: 'moved_at', type: 'bigint', isNullable: true },
          { name: 'moved_fire', type: 'bigint', isNullable: true },
          { name: 'updated_at', type: 'bigint' },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('job_shard_assignment');
  }
}
