import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryDeepPartialEntity, Repository } from 'typeorm';
import { fitJson, newId, TEXT_COLUMN_BYTES } from '../../../common/index.js';
import { AuditLog } from '../entities/index.js';

/** One audit entry to append: who (app id, null for an operator's CLI), what, in which namespace. */
export interface AuditEntry {
  namespace: string;
  appId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  /** Snapshots, already redacted by the caller (null when there is none, e.g. before a create). */
  before?: unknown;
  after?: unknown;
}

/** A filtered page of one namespace's audit rows (times epoch ms, inclusive). */
export interface AuditQuery {
  namespace: string;
  appId?: string;
  targetType?: string;
  targetId?: string;
  action?: string;
  from?: number;
  to?: number;
  offset: number;
  limit: number;
  /** Keyset: only rows after this one in the list's order (createdAt desc, id desc). */
  after?: { at: number; id: string };
}

/** Append-only audit_log (docs/data-model.md). */
@Injectable()
export class AuditLogRepository {
  private readonly repo: Repository<AuditLog>;

  constructor(@InjectDataSource() ds: DataSource) {
    this.repo = ds.getRepository(AuditLog);
  }

  /**
   * Appends one entry, inside `em` (the change's unit of work) when given; snapshots are cut to fit their TEXT
   * column (fitJson), so a change never fails on its audit row.
   */
  async append(e: AuditEntry, now: number, em?: EntityManager): Promise<void> {
    const row = {
      id: newId(),
      namespace: e.namespace,
      appId: e.appId,
      action: e.action,
      targetType: e.targetType,
      targetId: e.targetId,
      before: fitJson(e.before ?? null, TEXT_COLUMN_BYTES),
      after: fitJson(e.after ?? null, TEXT_COLUMN_BYTES),
      createdAt: now,
    };
    await (em ? em.getRepository(AuditLog) : this.repo).insert(row as QueryDeepPartialEntity<AuditLog>);
  }

  listForTarget(targetType: string, targetId: string): Promise<AuditLog[]> {
    return this.repo.find({ where: { targetType, targetId }, order: { createdAt: 'ASC' } });
  }

  /**
   * Rows of `q.namespace` matching every filter given, newest first then by id descending (a total order, so a
   * keyset page after `q.after` is exact), and how many match (without `after`).
   */
  async find(q: AuditQuery): Promise<[AuditLog[], number]> {
    const qb = this.repo.createQueryBuilder('a').where('a.namespace = :ns', { ns: q.namespace });
    if (q.appId !== undefined) qb.andWhere('a.appId = :appId', { appId: q.appId });
    if (q.targetType !== undefined) qb.andWhere('a.targetType = :tt', { tt: q.targetType });
    if (q.targetId !== undefined) qb.andWhere('a.targetId = :tid', { tid: q.targetId });
    if (q.action !== undefined) qb.andWhere('a.action = :action', { action: q.action });
    if (q.from !== undefined) qb.andWhere('a.createdAt >= :from', { from: q.from });
    if (q.to !== undefined) qb.andWhere('a.createdAt <= :to', { to: q.to });
    const total = await qb.getCount();
    if (q.after) {
      qb.andWhere('(a.createdAt < :at OR (a.createdAt = :at AND a.id < :aid))', { at: q.after.at, aid: q.after.id });
    }
    const rows = await qb.orderBy('a.createdAt', 'DESC').addOrderBy('a.id', 'DESC').offset(q.offset).limit(q.limit);
    return [await rows.getMany(), total];
  }
}
