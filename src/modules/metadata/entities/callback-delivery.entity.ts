import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintNumber } from './columns.js';

/** One callback to deliver for a finished instance, with its retry state (docs/data-model.md, docs/api.md). */
@Entity('callback_delivery')
@Index('ix_callback_delivery_due', ['state', 'nextAttemptAt'])
export class CallbackDelivery {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id: string;
  @Column({ name: 'instance_id', type: 'varchar', length: 36 }) instanceId: string;
  @Column({ type: 'varchar', length: 2048 }) url: string;
  @Column({ type: 'int', default: 0 }) attempt: number;
  @Column({ name: 'next_attempt_at', type: 'bigint', transformer: bigintNumber }) nextAttemptAt: number;
  @Column({ name: 'last_status_code', type: 'int', nullable: true }) lastStatusCode: number | null;
  @Column({ name: 'last_error', type: 'varchar', length: 1024, nullable: true }) lastError: string | null;
  @Column({ type: 'varchar', length: 16 }) state: string;
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: bigintNumber }) updatedAt: number;
}
