import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { CallbackDelivery, CallbackState } from '../entities/index.js';
import { DUE_STATES, redelivered } from './callback-delivery.repository.js';
import type { HostKey } from './callback-host.repository.js';
import { marks, runStatement, STATEMENT_ROWS } from './raw-statement.js';
import { cutText } from '../../../common/index.js';

/** A waiting delivery of a down (app, host) pair that is not its probe, with what the pair's row says. */
export interface DownPairDelivery extends HostKey {
  id: string;
  probeId: string | null;
  nextProbeAt: number | null;
  failures: number;
  lastError: string | null;
}

const PAIR = 'namespace = ? AND app_id = ? AND host = ?';
const pair = (k: HostKey) => [k.namespace, k.appId, k.host];
const FREE = '(lease_until IS NULL OR lease_until < ?)';

/**
 * One app's deliveries to one host (docs/callbacks.md "Hosts marked down", "Redeliver"): fail fast while the pair
 * is down, its probe, what waited once it is up, and redeliver by host; all over ix_callback_delivery_app_host.
 */
@Injectable()
export class CallbackHostDeliveries {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Up to `limit` waiting, unclaimed deliveries of `namespace`'s down pairs, their probes left out. */
  async waitingOnDownPairs(namespace: string, now: number, limit: number): Promise<DownPairDelivery[]> {
    const sql =
      'SELECT d.id, d.app_id, d.host, h.probe_id, h.next_probe_at, h.consecutive_failures, h.last_error' +
      ' FROM callback_host h' +
      ' JOIN callback_delivery d ON d.namespace = h.namespace AND d.app_id = h.app_id AND d.host = h.host' +
      ' WHERE h.namespace = ? AND h.down_since IS NOT NULL AND d.state IN (?, ?)' +
      ' AND (d.lease_until IS NULL OR d.lease_until < ?) AND (h.probe_id IS NULL OR d.id <> h.probe_id)' +
      ` LIMIT ${Math.max(1, Math.floor(limit))}`;
    const rows = (await this.ds.query(sql, [namespace, ...DUE_STATES, now])) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      namespace,
      id: String(r.id),
      appId: String(r.app_id),
      host: String(r.host),
      probeId: r.probe_id === null ? null : String(r.probe_id),
      nextProbeAt: r.next_probe_at === null ? null : Number(r.next_probe_at),
      failures: Number(r.consecutive_failures),
      lastError: r.last_error === null ? null : String(r.last_error),
    }));
  }

  /** Fails (`error`) those of `ids` still waiting, unclaimed, not the probe, while `key` is down. @returns how many. */
  async failFast(key: HostKey, ids: readonly string[], error: string, now: number): Promise<number> {
    let failed = 0;
    for (let i = 0; i < ids.length; i += STATEMENT_ROWS) {
      const part = ids.slice(i, i + STATEMENT_ROWS);
      const sql =
        'UPDATE callback_delivery SET state = ?, last_error = ?, claim = NULL, lease_until = NULL, updated_at = ?' +
        ` WHERE id IN (${marks(part.length)}) AND state IN (?, ?) AND ${FREE}` +
        ' AND EXISTS (SELECT 1 FROM callback_host h WHERE h.namespace = ? AND h.app_id = ? AND h.host = ?' +
        ' AND h.down_since IS NOT NULL AND (h.probe_id IS NULL OR h.probe_id <> callback_delivery.id))';
      const params = [CallbackState.CALLBACK_FAILED, cutText(error, 1024), now, ...part, ...DUE_STATES, now];
      failed += Number((await runStatement(this.ds, undefined, sql, [...params, ...pair(key)])).affected ?? 0);
    }
    return failed;
  }

  /** The waiting, unclaimed delivery of `key` to send as its probe: `probeId` if it waits, else the newest. */
  async probeCandidate(key: HostKey, probeId: string | null, now: number): Promise<string | null> {
    const sql =
      `SELECT id FROM callback_delivery WHERE ${PAIR} AND state IN (?, ?) AND ${FREE}` +
      ' ORDER BY CASE WHEN id = ? THEN 0 ELSE 1 END, id DESC LIMIT 1';
    const rows = (await this.ds.query(sql, [...pair(key), ...DUE_STATES, now, probeId ?? ''])) as Array<{ id: string }>;
    return rows.length > 0 ? String(rows[0].id) : null;
  }

  /** Makes waiting delivery `id` (a down pair's probe) due at `probeAt`, epoch ms, unless claimed. */
  async holdForProbe(id: string, probeAt: number, now: number): Promise<void> {
    const sql =
      `UPDATE callback_delivery SET next_attempt_at = ?, updated_at = ? WHERE id = ?` +
      ` AND state IN (?, ?) AND ${FREE}`;
    await runStatement(this.ds, undefined, sql, [probeAt, now, id, ...DUE_STATES, now]);
  }

  /** Makes every waiting delivery of `key` due at `now` (the host is up again). @returns how many. */
  async dueNow(key: HostKey, now: number, em?: EntityManager): Promise<number> {
    const sql =
      `UPDATE callback_delivery SET next_attempt_at = ?, updated_at = ? WHERE ${PAIR}` +
      ' AND state IN (?, ?) AND next_attempt_at > ?';
    const params = [now, now, ...pair(key), ...DUE_STATES, now];
    return Number((await runStatement(this.ds, em, sql, params)).affected ?? 0);
  }

  /**
   * Redelivers (PENDING, no tries, due now, the same deliveryId) at most `max` of `key`'s CALLBACK_FAILED
   * deliveries last changed at or after `since` (epoch ms), the oldest first, inside `em`. @returns how many, and
   * whether more match.
   */
  async redeliverFailedSince(
    em: EntityManager,
    key: HostKey,
    since: number,
    max: number,
    now: number,
  ): Promise<{ redelivered: number; more: boolean }> {
    const sql =
      `SELECT id FROM callback_delivery WHERE ${PAIR} AND state = ? AND updated_at >= ?` +
      ` ORDER BY updated_at, id LIMIT ${max + 1}`;
    const params = [...pair(key), CallbackState.CALLBACK_FAILED, since];
    const { records } = await runStatement(this.ds, em, sql, params);
    const ids = ((records ?? []) as Array<{ id: string }>).map((r) => String(r.id));
    const repo = em.getRepository(CallbackDelivery);
    let done = 0;
    for (let i = 0; i < Math.min(ids.length, max); i += STATEMENT_ROWS) {
      const part = ids.slice(i, Math.min(i + STATEMENT_ROWS, max));
      const res = await repo.update({ id: In(part), state: CallbackState.CALLBACK_FAILED }, redelivered(now));
      done += res.affected ?? 0;
    }
    return { redelivered: done, more: ids.length > max };
  }
}
