import { Logger } from '@nestjs/common';
import { groupBy } from '../../../common/index.js';
import type { CallbackSettings } from '../../../config/index.js';
import {
  type CallbackDelivery,
  CallbackHostDeliveries,
  CallbackHostRepository,
  type DownPair,
  type HostKey,
} from '../../metadata/index.js';
import { MetricsService } from '../../observability/index.js';
import { pairKey } from './claim-share.js';
import type { TryOutcome } from './outcome.js';

/** How long a pair seen answering with nothing to reset counts as clean (one read of its row per second). */
const CLEAN_MEMO_MS = 1_000;
/** Deliveries of down pairs failed fast per pass. */
const FAIL_FAST_BATCH = 1_000;

/** What a try says of its row's pair (HostHealth.recordTry). */
export interface TryOnHost {
  hostDown: string | null;
  probeAt: number | null;
}
const NOTHING: TryOnHost = { hostDown: null, probeAt: null };

/** The `lastError` of a delivery ended because its app's host is down (docs/callbacks.md "Hosts marked down"). */
export function hostDownError(host: string, failures: number, lastError: string | null): string {
  return `HOST_DOWN: ${host} failed ${failures} tries in a row (${lastError ?? 'no error recorded'})`;
}

/**
 * The sender's view of each app's receiving hosts (docs/callbacks.md "Hosts marked down"): counts a try's answer,
 * takes a pair down after `hostDownAfter` failures and up on an answer, fails fast the waiting deliveries of a down
 * pair but the newest (its probe), and picks each probe. Every change is one conditional statement.
 */
export class HostHealth {
  private readonly logger = new Logger('CallbackSender');
  /** Pairs this node saw answer with nothing to reset, and when: their next answers skip the row's read. */
  private readonly clean = new Map<string, number>();

  constructor(
    private readonly hosts: CallbackHostRepository,
    private readonly waiting: CallbackHostDeliveries,
    private readonly metrics: MetricsService,
    private readonly settings: CallbackSettings,
    private readonly ns: string,
    /** Asks for a pass at once (deliveries became due, or a pair went down). */
    private readonly kick: () => void,
  ) {}

  keyOf(row: Pick<CallbackDelivery, 'appId' | 'host'>): HostKey {
    return { namespace: this.ns, appId: row.appId, host: row.host };
  }

  /**
   * Ends CALLBACK_FAILED (`HOST_DOWN: …`, no try spent) the waiting deliveries of every down pair but one: the
   * newest, kept as the probe (a newer arrival replaces it, so one delivery the host refuses cannot keep it down).
   */
  async failFast(now: number): Promise<void> {
    const rows = await this.waiting.waitingOnDownPairs(this.ns, now, FAIL_FAST_BATCH);
    for (const list of groupBy(rows, pairKey).values()) {
      const key = this.keyOf(list[0]);
      let probe = list[0].probeId;
      const ids = list.map((r) => r.id);
      const newest = ids.reduce((a, b) => (b > a ? b : a));
      if ((probe === null || newest > probe) && (await this.hosts.keepProbe(key, newest))) {
        if (probe !== null) ids.push(probe);
        probe = newest;
        // Not due before its probe: the claim of due rows never sees a down pair's, and the view says when it goes.
        await this.waiting.holdForProbe(newest, list[0].nextProbeAt ?? now, now);
      }
      const error = hostDownError(key.host, list[0].failures, list[0].lastError);
      const failed = await this.waiting.failFast(
        key,
        ids.filter((id) => id !== probe),
        error,
        now,
      );
      if (failed > 0) this.metrics.callbackDeliveries.inc({ outcome: 'failed' }, failed);
    }
  }

  /**
   * Takes down pair `h`'s probe (one sender wins it). @returns the delivery to send as the probe, or null: lost to
   * another sender, or nothing waits (the pair is up again as far as anyone can tell).
   */
  async takeProbe(h: DownPair, now: number): Promise<string | null> {
    const key = this.keyOf(h);
    if (h.nextProbeAt === null || !(await this.hosts.takeProbe(key, h.nextProbeAt, now, this.settings.leaseMs)))
      return null;
    const id = await this.waiting.probeCandidate(key, h.probeId, now);
    if (id === null) {
      if (await this.hosts.recordAlive(key, now))
        this.logger.log(`callback host ${h.host} is up for app ${h.appId} (nothing waits)`);
      return null;
    }
    if (id !== h.probeId) await this.hosts.keepProbe(key, id, h.probeId ?? undefined);
    return id;
  }

  /** A probe of `row`'s pair failed (no try spent). @returns when the next probe is due, epoch ms. */
  async probeFailed(row: CallbackDelivery, error: string | null, now: number): Promise<number> {
    const { retryDelaysMs, leaseMs } = this.settings;
    const next = await this.hosts.probeFailed(this.keyOf(row), error ?? '', now, retryDelaysMs, leaseMs);
    return next ?? now + (retryDelaysMs.at(-1) ?? leaseMs);
  }

  /**
   * Counts try `o` of `row` against its pair (a probe's answer is always read: the memo of clean pairs may predate
   * the pair going down on another sender). @returns `hostDown`, the `HOST_DOWN: …` error the row ends with when
   * its pair is down and the row is not its probe (the try is spent), and `probeAt`, when the row is the probe:
   * its next try is the pair's first probe.
   */
  async recordTry(row: CallbackDelivery, o: TryOutcome, now: number, probe: boolean): Promise<TryOnHost> {
    const key = this.keyOf(row);
    const k = pairKey(row);
    if (o.host === 'alive' && (probe || !this.knownClean(k, now))) {
      if (await this.hosts.recordAlive(key, now)) {
        // Up again: what waited for it goes now, not at each row's own later retry time.
        const due = await this.waiting.dueNow(key, now);
        this.logger.log(
          `callback host ${row.host} is up again for app ${row.appId}; ${due} waiting deliveries due now`,
        );
        this.kick();
      }
      this.clean.set(k, now);
    }
    if (o.host !== 'failure') return NOTHING;
    this.clean.delete(k);
    const limits = { downAfter: this.settings.hostDownAfter, firstProbeMs: this.firstWait() };
    const h = await this.hosts.recordFailure(key, row.id, o.error ?? '', now, limits);
    if (h?.downSince == null) return NOTHING;
    if (h.probeId === row.id && h.downSince === now) {
      this.logger.warn(
        `callback host ${row.host} is down for app ${row.appId} after ${h.consecutiveFailures} consecutive ` +
          `failures; last: ${o.error}. Its waiting and new deliveries end HOST_DOWN; one is kept for the probe.`,
      );
      this.kick();
    }
    if (h.probeId === row.id) return { hostDown: null, probeAt: h.nextProbeAt };
    return { hostDown: hostDownError(row.host, h.consecutiveFailures, h.lastError), probeAt: null };
  }

  private firstWait(): number {
    return this.settings.retryDelaysMs[0] ?? this.settings.leaseMs;
  }

  private knownClean(key: string, now: number): boolean {
    const at = this.clean.get(key);
    if (at !== undefined && now - at < CLEAN_MEMO_MS) return true;
    if (this.clean.size >= 10_000) this.clean.clear();
    return false;
  }
}
