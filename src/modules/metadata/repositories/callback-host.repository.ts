import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, Not } from 'typeorm';
import { CallbackHost } from '../entities/index.js';
import { insertIgnoreVerb, runStatement } from './raw-statement.js';

/**
 * `callback_host`: each receiving host's consecutive failures and down state (docs/callbacks.md "Hosts marked
 * down"), shared by every sender. Every change is one conditional statement, so concurrent senders agree.
 */
@Injectable()
export class CallbackHostRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The row of `host` in `namespace`, or null. */
  find(namespace: string, host: string): Promise<CallbackHost | null> {
    return this.ds.getRepository(CallbackHost).findOneBy({ namespace, host });
  }

  /**
   * Counts one failed try (timeout, network error, 5xx) of `host`; at `downAfter` consecutive ones the host goes
   * down with its first probe at `now + firstProbeMs`. @returns true when this call took the host down.
   */
  async recordFailure(
    namespace: string,
    host: string,
    appId: string,
    error: string,
    now: number,
    downAfter: number,
    firstProbeMs: number,
  ): Promise<boolean> {
    const bump =
      'UPDATE callback_host SET consecutive_failures = consecutive_failures + 1, last_error = ?, last_app_id = ?,' +
      ' updated_at = ? WHERE namespace = ? AND host = ?';
    const err = error.slice(0, 1024);
    if (!(await runStatement(this.ds, undefined, bump, [err, appId, now, namespace, host])).affected) {
      const insert =
        `${insertIgnoreVerb(this.ds)} INTO callback_host (namespace, host, consecutive_failures, probes,` +
        ' last_error, last_app_id, updated_at) VALUES (?, ?, 1, 0, ?, ?, ?)';
      if (!(await runStatement(this.ds, undefined, insert, [namespace, host, err, appId, now])).affected)
        await runStatement(this.ds, undefined, bump, [err, appId, now, namespace, host]);
    }
    const down =
      'UPDATE callback_host SET down_since = ?, next_probe_at = ?, probes = 0 WHERE namespace = ? AND host = ?' +
      ' AND down_since IS NULL AND consecutive_failures >= ?';
    const res = await runStatement(this.ds, undefined, down, [now, now + firstProbeMs, namespace, host, downAfter]);
    return (res.affected ?? 0) > 0;
  }

  /** `host` answered (2xx, 4xx): failures reset, up again. @returns true when it was down until now. */
  async recordAlive(namespace: string, host: string, now: number): Promise<boolean> {
    // The usual case (a healthy host, no row or a clean one) costs one primary-key read and no write.
    const row = await this.find(namespace, host);
    if (!row || (row.consecutiveFailures === 0 && row.downSince === null)) return false;
    const up =
      'UPDATE callback_host SET down_since = NULL, next_probe_at = NULL, probes = 0, consecutive_failures = 0,' +
      ' updated_at = ? WHERE namespace = ? AND host = ? AND down_since IS NOT NULL';
    if (((await runStatement(this.ds, undefined, up, [now, namespace, host])).affected ?? 0) > 0) return true;
    const reset =
      'UPDATE callback_host SET consecutive_failures = 0, updated_at = ? WHERE namespace = ? AND host = ?' +
      ' AND consecutive_failures > 0';
    await runStatement(this.ds, undefined, reset, [now, namespace, host]);
    return false;
  }

  /** `namespace`'s down hosts whose next probe is due at `now`. */
  dueProbes(namespace: string, now: number): Promise<CallbackHost[]> {
    return this.ds
      .getRepository(CallbackHost)
      .createQueryBuilder('h')
      .where('h.namespace = :namespace AND h.down_since IS NOT NULL AND h.next_probe_at <= :now', { namespace, now })
      .orderBy('h.next_probe_at')
      .limit(100)
      .getMany();
  }

  /**
   * Takes the probe of down `host` due at `seenProbeAt` (only one sender wins it) by moving its next probe to
   * `now + leaseMs` (a sender that dies mid-probe leaves the next one to others then). @returns true when won.
   */
  async takeProbe(
    namespace: string,
    host: string,
    seenProbeAt: number,
    now: number,
    leaseMs: number,
  ): Promise<boolean> {
    const sql =
      'UPDATE callback_host SET next_probe_at = ?, updated_at = ? WHERE namespace = ? AND host = ?' +
      ' AND down_since IS NOT NULL AND next_probe_at = ?';
    const params = [now + leaseMs, now, namespace, host, seenProbeAt];
    return ((await runStatement(this.ds, undefined, sql, params)).affected ?? 0) > 0;
  }

  /**
   * A probe of down `host` failed: the next one waits `delaysMs[probes]` (then the longest; `fallbackMs` when
   * there are none), counting this one.
   */
  async probeFailed(
    namespace: string,
    host: string,
    error: string,
    now: number,
    delaysMs: readonly number[],
    fallbackMs: number,
  ) {
    const row = await this.find(namespace, host);
    if (!row?.downSince) return;
    const probes = row.probes + 1;
    const wait = delaysMs.length > 0 ? delaysMs[Math.min(probes, delaysMs.length - 1)] : fallbackMs;
    await this.ds
      .getRepository(CallbackHost)
      .update(
        { namespace, host, downSince: Not(IsNull()) },
        { probes, nextProbeAt: now + wait, lastError: error.slice(0, 1024), updatedAt: now },
      );
  }

  /** How many of `namespace`'s hosts are down now. */
  countDown(namespace: string): Promise<number> {
    return this.ds.getRepository(CallbackHost).countBy({ namespace, downSince: Not(IsNull()) });
  }
}
