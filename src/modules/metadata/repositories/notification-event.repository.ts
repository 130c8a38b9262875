import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { newId } from '../../../common/index.js';
import { type JobInstance } from '../entities/index.js';
import { NotificationEvent } from '../entities/notification.entity.js';
import { JobInstanceStatus as S } from '../state-machine/job-instance-status.js';
import { insertIgnoreVerb, marks, runStatement, STATEMENT_ROWS } from './raw-statement.js';

/** An instance that reached `finalStatus` in the transaction at hand (callbacks and notifications both need it). */
export type FinalInstance = Pick<JobInstance, 'id' | 'namespace' | 'appId' | 'handler' | 'callbackUrl' | 'jobId'> & {
  finalStatus: S;
};

/** A new event as a scan or the evaluator writes it; `dedupKey` at most 255 characters. Times epoch ms. */
export interface NewNotificationEvent {
  namespace: string;
  appId: string;
  kind: string;
  dedupKey: string;
  instanceId?: string | null;
  ruleId?: string | null;
  data?: Record<string, unknown> | null;
  at: number;
}

/** An app's callback host marked down. Times epoch ms. */
export interface DownHost {
  appId: string;
  host: string;
  downSince: number;
  failures: number;
  lastError: string | null;
}

/** The event kind written with a final state (docs/notifications.md "Events"). */
export const INSTANCE_FINAL = 'INSTANCE_FINAL';

const COLUMNS = [
  'id',
  'namespace',
  'app_id',
  'kind',
  'dedup_key',
  'instance_id',
  'rule_id',
  'data',
  'at',
  'created_at',
];

/**
 * Whether a final state can matter to a rule: a failure (FAILED, TIMEOUT) of anything, or any outcome of a job's
 * instance (a success ends a streak and is a recovery). A task's success or any cancel is no event, so a stream
 * of successful tasks writes nothing here.
 */
export function notifiable(f: FinalInstance): boolean {
  if (f.finalStatus === S.FAILED || f.finalStatus === S.TIMEOUT) return true;
  return f.jobId !== null && f.finalStatus === S.SUCCESS;
}

/**
 * `notification_event` (docs/notifications.md "Events"): what happened, for the evaluator. Final states are
 * written by {@link enqueueFinal} in their own transaction (so none is lost and none written for a state that
 * did not commit); scans write theirs with {@link insert}. A unique (namespace, dedup_key) makes every write
 * idempotent.
 */
@Injectable()
export class NotificationEventRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Writes an INSTANCE_FINAL event for each notifiable final in `em`. @returns the rows written. */
  async enqueueFinal(em: EntityManager, finals: readonly FinalInstance[], now: number): Promise<number> {
    const rows = finals.filter(notifiable).map((f) => ({
      namespace: f.namespace,
      appId: f.appId,
      kind: INSTANCE_FINAL,
      dedupKey: `final:${f.id}`,
      instanceId: f.id,
      data: { status: f.finalStatus },
      at: now,
    }));
    return this.insert(rows, now, em);
  }

  /** INSERT IGNOREs `events` (inside `em` when given). @returns how many were new. */
  async insert(events: readonly NewNotificationEvent[], now: number, em?: EntityManager): Promise<number> {
    let written = 0;
    for (let i = 0; i < events.length; i += STATEMENT_ROWS) {
      const part = events.slice(i, i + STATEMENT_ROWS);
      const sql =
        `${insertIgnoreVerb(this.ds)} INTO notification_event (${COLUMNS.join(', ')}) VALUES ` +
        part.map(() => `(${marks(COLUMNS.length)})`).join(', ');
      const params = part.flatMap((e) => [
        newId(),
        e.namespace,
        e.appId,
        e.kind,
        e.dedupKey.slice(0, 255),
        e.instanceId ?? null,
        e.ruleId ?? null,
        e.data ? JSON.stringify(e.data) : null,
        e.at,
        now,
      ]);
      written += Number((await runStatement(this.ds, em, sql, params)).affected ?? 0);
    }
    return written;
  }

  /**
   * Claims up to `limit` unprocessed events of `namespace` whose lease is free or expired, oldest first, for
   * `leaseMs` under the fresh `claim`. @returns the claimed rows.
   */
  async claim(namespace: string, claim: string, now: number, leaseMs: number, limit: number) {
    const ids = (await this.ds.query(
      'SELECT id FROM notification_event WHERE namespace = ? AND processed_at IS NULL' +
        ' AND (lease_until IS NULL OR lease_until < ?) ORDER BY created_at, id LIMIT ?',
      [namespace, now, limit],
    )) as { id: string }[];
    if (ids.length === 0) return [];
    await runStatement(
      this.ds,
      undefined,
      `UPDATE notification_event SET claim = ?, lease_until = ? WHERE id IN (${marks(ids.length)})` +
        ' AND processed_at IS NULL AND (lease_until IS NULL OR lease_until < ?)',
      [claim, now + leaseMs, ...ids.map((r) => r.id), now],
    );
    const rows = await this.ds.getRepository(NotificationEvent).findBy({ claim });
    return rows.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  /** Marks event `id` processed inside `em`, if `claim` still holds it. @returns false when the claim was lost. */
  async markProcessed(em: EntityManager, id: string, claim: string, now: number): Promise<boolean> {
    const sql =
      'UPDATE notification_event SET processed_at = ?, claim = NULL, lease_until = NULL WHERE id = ? AND claim = ?';
    return Number((await runStatement(this.ds, em, sql, [now, id, claim])).affected ?? 0) > 0;
  }

  /** Marks `ids` processed if `claim` still holds them (one statement). @returns how many it marked. */
  async markAllProcessed(ids: readonly string[], claim: string, now: number): Promise<number> {
    const sql =
      'UPDATE notification_event SET processed_at = ?, claim = NULL, lease_until = NULL' +
      ` WHERE id IN (${marks(ids.length)}) AND claim = ?`;
    return Number((await runStatement(this.ds, undefined, sql, [now, ...ids, claim])).affected ?? 0);
  }

  /** Deletes up to `limit` events of `namespace` processed before `before` (the scans' dedup horizon). */
  async purgeProcessed(namespace: string, before: number, limit: number): Promise<number> {
    const ids = (await this.ds.query(
      'SELECT id FROM notification_event WHERE namespace = ? AND processed_at IS NOT NULL AND processed_at < ? LIMIT ?',
      [namespace, before, limit],
    )) as { id: string }[];
    if (ids.length === 0) return 0;
    const sql = `DELETE FROM notification_event WHERE id IN (${marks(ids.length)})`;
    return Number(
      (
        await runStatement(
          this.ds,
          undefined,
          sql,
          ids.map((r) => r.id),
        )
      ).affected ?? 0,
    );
  }

  /**
   * The (app, host) pairs of `namespace` whose callbacks are marked down (callback_host, docs/callbacks.md "Hosts
   * marked down"), at most `limit`: what the HOST_DOWN scan reports.
   */
  async downHosts(namespace: string, limit: number): Promise<DownHost[]> {
    const rows = (await this.ds.query(
      'SELECT app_id, host, down_since, consecutive_failures, last_error FROM callback_host' +
        ' WHERE namespace = ? AND down_since IS NOT NULL LIMIT ?',
      [namespace, limit],
    )) as Record<string, unknown>[];
    return rows.map((r) => ({
      appId: String(r.app_id),
      host: String(r.host),
      downSince: Number(r.down_since),
      failures: Number(r.consecutive_failures),
      lastError: (r.last_error as string | null) ?? null,
    }));
  }

  /** Unprocessed events of `namespace` (a gauge and the chaos check's count). */
  async backlog(namespace: string): Promise<number> {
    return this.ds.getRepository(NotificationEvent).countBy({ namespace, processedAt: IsNull() });
  }
}
