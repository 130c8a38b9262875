import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { bigintNumber, jsonText } from './columns.js';

/**
 * Who changed what, when (docs/data-model.md, docs/tenancy.md "Audit and redaction"): every mutation of jobs, tasks
 * (cancel), clients, scopes and settings, written in the same transaction as the change, secrets redacted.
 */
@Entity('audit_log')
@Index('ix_audit_log_target', ['targetType', 'targetId'])
@Index('ix_audit_log_ns_time', ['namespace', 'createdAt'])
export class AuditLog {
  @PrimaryColumn({ type: 'varchar', length: 36 }) id: string;
  /** The namespace the change was made in ('' for rows written before namespaces were recorded). */
  @Column({ type: 'varchar', length: 64, default: '' }) namespace: string;
  @Column({ name: 'app_id', type: 'varchar', length: 64, nullable: true }) appId: string | null;
  @Column({ type: 'varchar', length: 32 }) action: string;
  @Column({ name: 'target_type', type: 'varchar', length: 32 }) targetType: string;
  @Column({ name: 'target_id', type: 'varchar', length: 128 }) targetId: string;
  @Column({ type: 'text', nullable: true, transformer: jsonText }) before: unknown;
  @Column({ type: 'text', nullable: true, transformer: jsonText }) after: unknown;
  @Column({ name: 'created_at', type: 'bigint', transformer: bigintNumber }) createdAt: number;
}
