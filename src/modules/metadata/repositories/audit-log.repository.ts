import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryDeepPartialEntity, Repository } from 'typeorm';
import { newId } from '../../../common/index.js';
import { AuditLog } from '../entities/index.js';

/** Append-only audit_log (DESIGN §3). */
@Injectable()
export class AuditLogRepository {
  private readonly repo: Repository<AuditLog>;

  constructor(@InjectDataSource() ds: DataSource) {
    this.repo = ds.getRepository(AuditLog);
  }

  /** Appends one entry; `before`/`after` are snapshots (null for create/delete). */
  async append(e: { appId: string | null; action: string; targetType: string; targetId: string; before?: unknown; after?: unknown }, now: number): Promise<void> {
    await this.repo.insert({ id: newId(), appId: e.appId, action: e.action, targetType: e.targetType, targetId: e.targetId, before: e.before ?? null, after: e.after ?? null, createdAt: now } as QueryDeepPartialEntity<AuditLog>);
  }

  listForTarget(targetType: string, targetId: string): Promise<AuditLog[]> {
    return this.repo.find({ where: { targetType, targetId }, order: { createdAt: 'ASC' } });
  }
}
