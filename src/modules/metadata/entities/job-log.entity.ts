import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { bigintNumber } from './columns.js';

/** Levels of a handler log line (`ctx.log.info/warn/error`). */
export type HandlerLogLevel = 'info' | 'warn' | 'error';

/**
 * One line a handler logged in one attempt (docs/long-tasks.md "Handler logs"); `id` orders lines across
 * attempts. Bounded per attempt (HANDLER_LOG_MAX_LINES, HANDLER_LOG_MAX_BYTES); removed by retention.
 */
@Entity('job_log')
@Index('ix_job_log_instance', ['instanceId', 'id'])
@Index('ix_job_log_at', ['at'])
export class JobLog {
  // mysql2 hands a bigint back as a string: read it through Number() where it is compared or paged on.
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: number | string;
  @Column({ type: 'varchar', length: 64 }) namespace: string;
  @Column({ name: 'instance_id', type: 'varchar', length: 36 }) instanceId: string;
  @Column({ type: 'int' }) attempt: number;
  @Column({ name: 'node_id', type: 'varchar', length: 128 }) nodeId: string;
  /** Epoch ms UTC when the handler logged it. */
  @Column({ type: 'bigint', transformer: bigintNumber }) at: number;
  @Column({ type: 'varchar', length: 8 }) level: HandlerLogLevel;
  @Column({ type: 'text' }) line: string;
}
