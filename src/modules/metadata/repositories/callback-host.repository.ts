import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull, Not } from 'typeorm';
import { CallbackHost } from '../entities/index.js';
import { insertIgnoreVerb, runStatement } from './raw-statement.js';
import { cutText } from '../../../common/index.js';

/** One app's receiving `host:port` in one namespace: the key of `callback_host`. */
export interface HostKey {
  namespace: string;
  appId: string;
  host: string;
}

/** A down pair as the sender reads it each pass. */
export interface DownPair extends HostKey {
  nextProbeAt: number | null;
  probeId: string | null;
}

const KEY = 'namespace = ? AND app_id = ? AND host = ?';
const keyOf = (k: HostKey) => [k.namespace, k.appId, k.host];

/**
 * `callback_host`: each app's receiving hosts' consecutive failures and down state (docs/callbacks.md "Hosts marked
 * down"), shared by every sender. Every change is one conditional statement, so concurrent senders agree.
 */
@Injectable()
export class CallbackHostRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The row of `key`, or null. */
  find(key: HostKey): Promise<CallbackHost | null> {
    return this.ds.getRepository(CallbackHost).findOneBy({ ...key });
  }

  /**
   * Counts one failed try (timeout, network error, 5xx) of delivery `deliveryId` to `key`; at `downAfter`
   * consecutive ones the host goes down for the app, its first probe at `now + firstProbeMs`, that delivery kept as
   * the probe. @returns the row after the count.
   */
  async recordFailure(
    key: HostKey,
    deliveryId: string,
    error: string,
    now: number,
    limits: { downAfter: number; firstProbeMs: number },
  ): Promise<CallbackHost | null> {
    const bump =
      'UPDATE callback_host SET consecutive_failures = consecutive_failures + 1, last_error = ?, updated_at = ?' +
      ` WHERE ${KEY}`;
    const err = cutText(error, 1024);
    if (!(await runStatement(this.ds, undefined, bump, [err, now, ...keyOf(key)])).affected) {
      const insert =
        `${insertIgnoreVerb(this.ds)} INTO callback_host (namespace, app_id, host, consecutive_failures, probes,` +
        ' last_error, updated_at) VALUES (?, ?, ?, 1, 0, ?, ?)';
      if (!(await runStatement(this.ds, undefined, insert, [...keyOf(key), err, now])).affected)
        await runStatement(this.ds, undefined, bump, [err, now, ...keyOf(key)]);
    }
    const down =
      `UPDATE callback_host SET down_since = ?, next_probe_at = ?, probes = 0, probe_id = ? WHERE ${KEY}` +
      ' AND down_since IS NULL AND consecutive_failures >= ?';
    const params = [now, now + limits.firstProbeMs, deliveryId, ...keyOf(key), limits.downAfter];
    await runStatement(this.ds, undefined, down, params);
    return this.find(key);
  }

  /** `key` answered (2xx, 4xx): failures reset, up again. @returns true when it was down until now. */
  async recordAlive(key: HostKey, now: number, em?: EntityManager): Promise<boolean> {
    // The usual case (a healthy host, no row or a clean one) costs one primary-key read and no write.
    const row = await (em ?? this.ds.manager).getRepository(CallbackHost).findOneBy({ ...key });
    if (!row || (row.consecutiveFailures === 0 && row.downSince === null)) return false;
    const up =
      'UPDATE callback_host SET down_since = NULL, next_probe_at = NULL, probes = 0, probe_id = NULL,' +
      ` consecutive_failures = 0, updated_at = ? WHERE ${KEY} AND down_since IS NOT NULL`;
    if (((await runStatement(this.ds, em, up, [now, ...keyOf(key)])).affected ?? 0) > 0) return true;
    const reset = `UPDATE callback_host SET consecutive_failures = 0, updated_at = ? WHERE ${KEY}`;
    await runStatement(this.ds, em, `${reset} AND consecutive_failures > 0`, [now, ...keyOf(key)]);
    return false;
  }

  /**
   * `namespace`'s down (app, host) pairs (at most `limit`), the next probe due first: one raw read of
   * ix_callback_host_down per sender pass.
   */
  async downPairs(namespace: string, limit = 10_000): Promise<DownPair[]> {
    const sql =
      'SELECT app_id, host, next_probe_at, probe_id FROM callback_host WHERE namespace = ? AND down_since IS NOT NULL' +
      ` ORDER BY next_probe_at LIMIT ${Math.max(1, Math.floor(limit))}`;
    const rows = (await this.ds.query(sql, [namespace])) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      namespace,
      appId: String(r.app_id),
      host: String(r.host),
      nextProbeAt: r.next_probe_at === null ? null : Number(r.next_probe_at),
      probeId: r.probe_id === null ? null : String(r.probe_id),
    }));
  }

  /**
   * Takes the probe of down `key` due at `seenProbeAt` (only one sender wins it) by moving its next probe to
   * `now + leaseMs` (a sender that dies mid-probe leaves the next one to others then). @returns true when won.
   */
  async takeProbe(key: HostKey, seenProbeAt: number, now: number, leaseMs: number): Promise<boolean> {
    const sql =
      `UPDATE callback_host SET next_probe_at = ?, updated_at = ? WHERE ${KEY} AND down_since IS NOT NULL` +
      ' AND next_probe_at = ?';
    const params = [now + leaseMs, now, ...keyOf(key), seenProbeAt];
    return ((await runStatement(this.ds, undefined, sql, params)).affected ?? 0) > 0;
  }

  /**
   * Keeps delivery `deliveryId` as down `key`'s probe when it is newer (ids are UUIDv7) than the one kept, or none
   * is kept, or `replacing` is the one kept. @returns true when it is the probe now.
   */
  async keepProbe(key: HostKey, deliveryId: string, replacing?: string): Promise<boolean> {
    const sql =
      `UPDATE callback_host SET probe_id = ? WHERE ${KEY} AND down_since IS NOT NULL` +
      ' AND (probe_id IS NULL OR probe_id < ? OR probe_id = ?)';
    const params = [deliveryId, ...keyOf(key), deliveryId, replacing ?? deliveryId];
    return ((await runStatement(this.ds, undefined, sql, params)).affected ?? 0) > 0;
  }

  /**
   * A probe of down `key` failed: the next one waits `delaysMs[probes]` (then the longest; `fallbackMs` when
   * there are none), counting this one. @returns when (epoch ms), or null when the pair is not down.
   */
  async probeFailed(
    key: HostKey,
    error: string,
    now: number,
    delaysMs: readonly number[],
    fallbackMs: number,
  ): Promise<number | null> {
    const row = await this.find(key);
    if (!row?.downSince) return null;
    const probes = row.probes + 1;
    const next = now + (delaysMs.length > 0 ? delaysMs[Math.min(probes, delaysMs.length - 1)] : fallbackMs);
    await this.ds
      .getRepository(CallbackHost)
      .update(
        { ...key, downSince: Not(IsNull()) },
        { probes, nextProbeAt: next, lastError: cutText(error, 1024), updatedAt: now },
      );
    return next;
  }

  /** How many of `namespace`'s (app, host) pairs are down now. */
  countDown(namespace: string): Promise<number> {
    return this.ds.getRepository(CallbackHost).countBy({ namespace, downSince: Not(IsNull()) });
  }

  /** A page of app `appId`'s hosts in `namespace`: the down ones first, then by host; and how many in all. */
  listOf(namespace: string, appId: string, offset: number, limit: number): Promise<[CallbackHost[], number]> {
    return this.ds
      .getRepository(CallbackHost)
      .createQueryBuilder('h')
      .where('h.namespace = :namespace AND h.app_id = :appId', { namespace, appId })
      .addSelect('CASE WHEN h.down_since IS NULL THEN 1 ELSE 0 END', 'up_last')
      .orderBy('up_last')
      .addOrderBy('h.host')
      .offset(offset)
      .limit(limit)
      .getManyAndCount();
  }
}
