import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { type AttemptStatus } from '../state-machine/attempt-status.js';
import { bigintNumber } from './columns.js';

/**
 * One row per attempt of an instance: which node ran it, with which fencing token, and how it ended
 * (docs/data-model.md).
 */
@Entity('job_attempt')
@Index('uq_job_attempt_instance_attempt', ['instanceId', 'attempt'], { unique: true })
export class JobAttempt {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id: string;
  @Column({ name: 'instance_id', type: 'varchar', length: 36 }) instanceId: string;
  @Column({ type: 'int' }) attempt: number;
  @Column({ name: 'node_id', type: 'varchar', length: 128 }) nodeId: string;
  @Column({ name: 'fencing_token', type: 'bigint', transformer: bigintNumber }) fencingToken: number;
  @Column({ type: 'varchar', length: 16 }) status: AttemptStatus;
  @Column({ name: 'started_at', type: 'bigint', transformer: bigintNumber }) startedAt: number;
  @Column({ name: 'finished_at', type: 'bigint', nullable: true, transformer: bigintNumber }) finishedAt: number | null;
  @Column({ type: 'text', nullable: true }) error: string | null;
}
