import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintNumber, jsonText } from './columns.js';

/** Registry history of executor nodes (docs/data-model.md); liveness itself is the coordination heartbeat. */
@Entity('executor_node')
export class ExecutorNode {
  @PrimaryColumn({ name: 'node_id', type: 'varchar', length: 128 }) nodeId: string;
  @Column({ type: 'varchar', length: 255 }) host: string;
  @Column({ type: 'text', transformer: jsonText }) handlers: string[];
  @Column({ type: 'int' }) capacity: number;
  @Column({ type: 'text', nullable: true, transformer: jsonText }) labels: Record<string, string> | null;
  @Column({ name: 'started_at', type: 'bigint', transformer: bigintNumber }) startedAt: number;
  @Column({ name: 'last_seen_at', type: 'bigint', transformer: bigintNumber }) lastSeenAt: number;
  /** The app owning an app worker's node (docs/workers.md); null for a trusted executor. */
  @Column({ name: 'app_id', type: 'varchar', length: 64, nullable: true }) appId: string | null;
  @Column({ name: 'stopped_at', type: 'bigint', nullable: true, transformer: bigintNumber }) stoppedAt: number | null;
}
