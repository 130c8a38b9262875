import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, QueryDeepPartialEntity } from 'typeorm';
import { JobInstance } from '../entities/job-instance.entity.js';
import { isUniqueViolation } from '../repositories/db-errors.js';
import { InstanceTable } from './instance-table.js';

/** The row stored under a request id, and whether this call created it. */
export interface Intake {
  created: boolean;
  instance: JobInstance;
}

/** The task API's writes of job_instance (docs/api.md): idempotent on (app_id, request_id). */
@Injectable()
export class InstanceIntake {
  private readonly t: InstanceTable;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.t = InstanceTable.of(ds);
  }

  /** Inserts an API task, or returns the row its (app_id, request_id) already has with `created: false`. */
  async insertOrGet(row: JobInstance): Promise<Intake> {
    try {
      await this.t.repo
        .createQueryBuilder()
        .insert()
        .into(JobInstance)
        .values(row as QueryDeepPartialEntity<JobInstance>)
        .updateEntity(false)
        .execute();
      return { created: true, instance: row };
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      const existing = await this.findByRequest(row.appId, row.requestId);
      if (!existing) throw err;
      return { created: false, instance: existing };
    }
  }

  /**
   * API tasks in bulk (one app, distinct request ids): aligned with `rows`, the row stored under each request id
   * and whether this call created it. Statements commit alone (no unit of work holding SQLite's connection);
   * rows go in request-id order, so two batches sharing ids lock them in the same order.
   * @throws Error when a row was neither inserted nor found (deleted in between).
   */
  async insertOrGetMany(rows: JobInstance[]): Promise<Intake[]> {
    if (rows.length === 0) return [];
    const em = this.ds.manager;
    const byRequest = (a: JobInstance, b: JobInstance) =>
      a.requestId < b.requestId ? -1 : a.requestId > b.requestId ? 1 : 0;
    const inserted = await this.t.insertIgnore(em, [...rows].sort(byRequest));
    const ids = rows.map((r) => r.id);
    const written = inserted === rows.length ? new Set(ids) : await this.t.existingIds(em, ids);
    const missing = rows.filter((r) => !written.has(r.id)).map((r) => r.requestId);
    const exact = new Map<string, JobInstance>();
    const folded = new Map<string, JobInstance>(); // MySQL's default collation compares request ids case-insensitively
    for (let i = 0; i < missing.length; i += 1000) {
      for (const f of await this.t.repo.findBy({ appId: rows[0].appId, requestId: In(missing.slice(i, i + 1000)) })) {
        exact.set(f.requestId, f);
        folded.set(f.requestId.toLowerCase(), f);
      }
    }
    return rows.map((r) => {
      if (written.has(r.id)) return { created: true, instance: r };
      const instance = exact.get(r.requestId) ?? folded.get(r.requestId.toLowerCase());
      if (!instance) throw new Error(`task '${r.requestId}' was neither inserted nor found`);
      return { created: false, instance };
    });
  }

  /** The task `requestId` of app `appId`, or null. */
  findByRequest(appId: string, requestId: string): Promise<JobInstance | null> {
    return this.t.repo.findOneBy({ appId, requestId });
  }
}
