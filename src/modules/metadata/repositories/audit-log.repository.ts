import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryDeepPartialEntity, Repository } from 'typeorm';
import { fitJson, newId, TEXT_COLUMN_BYTES } from '../../../common/index.js';
import { AuditLog } from '../entities/index.js';

/** Append-only audit_log (DESIGN §3). */
@Injectable()
export class AuditLogRepository {
  private readonly repo: Repository<AuditLog>;

  constructor(@InjectDataSource() ds: DataSource) {
    this.repo = ds.getRepository(AuditLog);
  }

  /**
   * Appends one entry; `before`/`after` are snapshots (null for create/delete), each made to fit its TEXT column
   * (fitJson: the largest fields of a snapshot over 65,535 bytes, a job's params say, are replaced by their size).
   * A job whose params fill their own column made its audit row too long: the change was written, its audit row
   * failed, and the request answered 500.
   */
  async append(e: { appId: string | null; action: string; targetType: string; targetId: string; before?: unknown; after?: unknown }, now: number): Promise<void> {
    const before = fitJson(e.before ?? null, TEXT_COLUMN_BYTES);
    const after = fitJson(e.after ?? null, TEXT_COLUMN_BYTES);
    await this.repo.insert({ id: newId(), appId: e.appId, action: e.action, targetType: e.targetType, targetId: e.targetId, before, after, createdAt: now } as QueryDeepPartialEntity<AuditLog>);
  }

  listForTarget(targetType: string, targetId: string): Promise<AuditLog[]> {
    return this.repo.find({ where: { targetType, targetId }, order: { createdAt: 'ASC' } });
  }
}
