import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CALLBACK_HEADERS, CLOCK, type Clock, cutText, newId, signCallback, WarnOnce } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig, type CallbackSettings } from '../../../config/index.js';
import { type EgressPolicy } from '../../egress/index.js';
import {
  AppSecretReader,
  AppSigningError,
  CallbackDelivery,
  CallbackDeliveryRepository,
  type DownPair,
  CallbackHostDeliveries,
  CallbackHostRepository,
  CallbackState,
  type DuePair,
  type JobInstance,
  InstanceReads,
} from '../../metadata/index.js';
import { type CallbackOutcomeLabel, type LabelsMatch, MetricsService } from '../../observability/index.js';
import { CallbackPost } from './callback-post.js';
import { pairKey, pairOf, pickClaims } from './claim-share.js';
import { HostHealth } from './host-health.js';
import { classifyTry, type TryOutcome, type TryResult } from './outcome.js';
import { callbackBody } from './payload.js';

/** How often the outbox gauges are refreshed and old deliveries expired, ms. */
const HOUSEKEEPING_MS = 5_000;
/** Candidates read per claim round, as a multiple of the room left. */
const WINDOW_FACTOR = 2;
const CLAIM_ROUNDS = 4;
/** Probes taken per pass at most (the due ones first). */
const MAX_PROBES = 100;
const _outcomeLabels: LabelsMatch<TryOutcome['outcome'], CallbackOutcomeLabel> = true;

/** A stored row that can never be sent as it is: the delivery fails, the loop goes on. */
class BadDelivery extends Error {}

interface Flight {
  row: CallbackDelivery;
  /** The instance, read for the whole claim in one statement (undefined: read it at send time). */
  instance?: JobInstance | null;
  abort: AbortController;
  probe: boolean;
  done: Promise<void>;
}

/**
 * The callback sender (docs/callbacks.md "Sender"): claims due outbox rows with a per-delivery lease, POSTs each
 * signed body through the egress policy, and writes the outcome under its claim. At most `senders` tries in
 * flight on this node, `perHost` per app and host:port; a down pair's deliveries fail fast but its probe, one per
 * probe time (HostHealth). Runs on scheduler nodes.
 */
@Injectable()
export class CallbackSender implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(CallbackSender.name);
  private readonly settings: CallbackSettings;
  /** Only this namespace's deliveries and hosts (docs/callbacks.md "Sender"). */
  private readonly ns: string;
  private readonly flights = new Map<string, Flight>();
  /** Tries in flight per (app, host) pair ({@link pairKey}). */
  private readonly perPair = new Map<string, number>();
  private readonly health: HostHealth;
  private stopping = false;
  /** A try ended while a pass ran: the next pass follows at once instead of after `pollMs`. */
  private kicked = false;
  private dropping = false;
  private cancelTick: (() => void) | null = null;
  private ticking: Promise<void> | null = null;
  private lastHousekeeping = -Infinity;
  private readonly warned = new WarnOnce((m) => this.logger.warn(m));

  constructor(
    private readonly deliveries: CallbackDeliveryRepository,
    private readonly hosts: CallbackHostRepository,
    hostDeliveries: CallbackHostDeliveries,
    private readonly instances: InstanceReads,
    private readonly secrets: AppSecretReader,
    private readonly metrics: MetricsService,
    private readonly http: CallbackPost,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.settings = config.callbacks;
    this.ns = config.namespace;
    this.health = new HostHealth(hosts, hostDeliveries, metrics, this.settings, this.ns, () => this.kick());
  }

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  /** Tries in flight on this node now. */
  get inFlight(): number {
    return this.flights.size;
  }

  /**
   * Stops claiming, gives in-flight tries `shutdownGraceMs`, then aborts the rest and drops their claims (no try
   * spent), so another sender takes them at once (docs/callbacks.md "Shutdown").
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.cancelTick?.();
    await this.ticking;
    const all = () => Promise.allSettled([...this.flights.values()].map((f) => f.done));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((r) => (timer = setTimeout(r, this.settings.shutdownGraceMs)));
    await Promise.race([all(), grace]);
    clearTimeout(timer);
    if (this.flights.size === 0) return;
    this.dropping = true;
    for (const f of this.flights.values()) f.abort.abort(new Error('sender shutting down'));
    await all();
  }

  /** One pass: housekeeping when due, fail fast of down pairs, their probes, then due deliveries, room allowing. */
  async tick(): Promise<void> {
    const now = this.clock.now();
    const step = (name: string, fn: () => Promise<void>) =>
      fn().catch((err: Error) => this.warned.warn(`callback sender ${name} failed: ${err.message}`, now));
    if (now - this.lastHousekeeping >= HOUSEKEEPING_MS) {
      this.lastHousekeeping = now;
      await step('housekeeping', () => this.housekeeping(now));
    }
    // Down pairs, read once a pass (none: no more reads): fail fast, their probes, and left out of the claim.
    const down = await this.hosts.downPairs(this.ns).catch((err: Error) => {
      this.warned.warn(`callback sender failed to read the hosts down: ${err.message}`, now);
      return null;
    });
    if (down === null) return;
    if (down.length > 0) await step('fail fast', () => this.health.failFast(now));
    await step('probe', () => this.claimProbes(now, down));
    const downKeys = new Set(down.map(pairKey));
    await step('claim', () => this.claimDue(now, downKeys));
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    this.cancelTick = this.clock.schedule(delayMs, () => {
      this.kicked = false;
      this.ticking = this.tick().finally(() => {
        this.ticking = null;
        this.schedule(this.kicked ? 0 : this.settings.pollMs);
      });
    });
  }

  /**
   * A slot freed: claim again now rather than at the next poll, so a backlog drains at the receivers' pace, not
   * `senders` per `pollMs`. Passes never overlap: during one, the next is only asked for.
   */
  private kick(): void {
    if (this.stopping) return;
    if (this.ticking) {
      this.kicked = true;
      return;
    }
    this.cancelTick?.();
    this.schedule(0);
  }

  private room(): number {
    return this.stopping ? 0 : this.settings.senders - this.flights.size;
  }

  private pairRoom(key: string, down?: ReadonlySet<string>): number {
    return down?.has(key) ? 0 : this.settings.perHost - (this.perPair.get(key) ?? 0);
  }

  /**
   * Candidates by rounds: pairs this node has no room for are left out of the SELECT, so none crowds others; a
   * down pair's (`down`) are not claimed (after the fail fast, only its probe waits, due at the probe time).
   */
  private async claimDue(now: number, down: ReadonlySet<string>): Promise<void> {
    const skip: DuePair[] = [...this.perPair.keys()].filter((k) => this.pairRoom(k) <= 0).map(pairOf);
    for (let round = 0; round < CLAIM_ROUNDS && this.room() > 0; round++) {
      const window = this.room() * WINDOW_FACTOR;
      const candidates = await this.deliveries.dueCandidates(this.ns, now, window, skip);
      const { ids, filled } = pickClaims(candidates, this.room(), (k) => this.pairRoom(k, down));
      skip.push(...filled);
      if (ids.length > 0) {
        const rows = await this.deliveries.claim(ids, newId(), now, this.settings.leaseMs);
        const instances = new Map(
          (await this.instances.findMany(rows.map((r) => r.instanceId))).map((i) => [i.id, i] as const),
        );
        for (const row of rows) this.launch(row, false, instances.get(row.instanceId) ?? null);
      }
      if (candidates.length < window) return;
    }
  }

  private async claimProbes(now: number, down: readonly DownPair[]): Promise<void> {
    for (const h of down.filter((p) => p.nextProbeAt !== null && p.nextProbeAt <= now).slice(0, MAX_PROBES)) {
      if (this.room() <= 0) return;
      if (this.pairRoom(pairKey(h)) <= 0) continue;
      const id = await this.health.takeProbe(h, now);
      const rows = id ? await this.deliveries.claim([id], newId(), now, this.settings.leaseMs, false) : [];
      if (rows.length > 0) this.launch(rows[0], true);
    }
  }

  private launch(row: CallbackDelivery, probe: boolean, instance?: JobInstance | null): void {
    const abort = new AbortController();
    const key = pairKey(row);
    this.perPair.set(key, (this.perPair.get(key) ?? 0) + 1);
    const flight: Flight = { row, abort, probe, instance, done: Promise.resolve() };
    this.flights.set(row.id, flight);
    flight.done = this.run(flight)
      .catch((err: Error) => this.logger.warn(`callback ${row.id}: ${err.message}`))
      .finally(() => {
        this.flights.delete(row.id);
        const n = (this.perPair.get(key) ?? 1) - 1;
        if (n > 0) this.perPair.set(key, n);
        else this.perPair.delete(key);
        this.kick();
      });
  }

  /** One try of a claimed row; a bad stored row (URL, instance, result, app) fails that delivery only. */
  private async run(f: Flight): Promise<void> {
    const { row } = f;
    const claim = row.claim!;
    let result: TryResult;
    try {
      result = await this.send(row, f.abort.signal, f.instance);
    } catch (err) {
      if (err instanceof BadDelivery) return this.fail(row, claim, `BAD_DELIVERY: ${err.message}`, null);
      // Shutdown, or a database error before sending: the claim goes back, no try spent.
      await this.deliveries.settle(row.id, claim, {}, this.clock.now());
      if (!this.dropping) this.logger.warn(`callback ${row.id} not sent: ${(err as Error).message}`);
      return;
    }
    if (this.dropping) {
      await this.deliveries.settle(row.id, claim, {}, this.clock.now());
      return;
    }
    await this.record(f, classifyTry(result, row.attempts + 1, this.settings, this.clock.now()));
  }

  /** Builds, signs and sends the body. @throws BadDelivery for a bad stored row (nothing was sent). */
  private async send(row: CallbackDelivery, signal: AbortSignal, read?: JobInstance | null): Promise<TryResult> {
    const instance = read !== undefined ? read : await this.instances.findById(row.instanceId);
    if (!instance) throw new BadDelivery(`instance ${row.instanceId} not found`);
    const app = await this.secrets.read(row.appId).catch((err: Error) => {
      throw err instanceof AppSigningError ? new BadDelivery(err.message) : err;
    });
    let body: string, policy: EgressPolicy, url: URL;
    try {
      body = JSON.stringify(callbackBody(row.id, instance));
      policy = this.http.policyFor(app.egressAllow);
      url = new URL(row.url);
    } catch (err) {
      throw new BadDelivery((err as Error).message);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BadDelivery(`not an http(s) URL: ${row.url}`);
    const ts = String(this.clock.now());
    const headers = {
      'content-type': 'application/json',
      [CALLBACK_HEADERS.deliveryId]: row.id,
      [CALLBACK_HEADERS.timestamp]: ts,
      [CALLBACK_HEADERS.signature]: signCallback(app.secret, ts, body),
    };
    const request = { deliveryId: row.id, url, body, headers, policy, instance, signal };
    return this.http.post(request, () => this.dropping);
  }

  private async record(f: Flight, o: TryOutcome): Promise<void> {
    const { row } = f;
    const claim = row.claim!;
    const now = this.clock.now();
    if (f.probe && o.host === 'failure') {
      // A failed probe spends no try: the row waits for the host's next probe (its nextAttemptAt says when).
      const next = await this.health.probeFailed(row, o.error, now);
      const patch = { lastStatusCode: o.statusCode, lastError: cut(o.error), nextAttemptAt: next };
      await this.deliveries.settle(row.id, claim, patch, now);
      return;
    }
    const { hostDown, probeAt } = await this.health.recordTry(row, o, now, f.probe);
    const attempts = row.attempts + 1;
    if (hostDown !== null) {
      await this.fail(row, claim, hostDown, o.statusCode, attempts);
    } else if (o.outcome === 'delivered') {
      const won = await this.deliveries.settle(
        row.id,
        claim,
        { state: CallbackState.DELIVERED, attempts, deliveredAt: now, lastStatusCode: o.statusCode, lastError: null },
        now,
      );
      if (won) {
        this.metrics.callbackDeliveries.inc({ outcome: 'delivered' });
        this.metrics.callbackLatencySeconds.observe(Math.max(0, now - row.finalAt) / 1000);
      }
    } else if (o.outcome === 'retry') {
      const patch = {
        state: CallbackState.RETRYING,
        attempts,
        nextAttemptAt: probeAt ?? now + (o.waitMs ?? 0),
        lastStatusCode: o.statusCode,
        lastError: cut(o.error),
      };
      if (await this.deliveries.settle(row.id, claim, patch, now))
        this.metrics.callbackDeliveries.inc({ outcome: 'retry' });
    } else {
      await this.fail(row, claim, o.error ?? 'failed', o.statusCode, attempts);
    }
  }

  private async fail(
    row: CallbackDelivery,
    claim: string,
    error: string,
    statusCode: number | null,
    attempts = row.attempts,
  ): Promise<void> {
    const patch = { state: CallbackState.CALLBACK_FAILED, attempts, lastStatusCode: statusCode, lastError: cut(error) };
    if (await this.deliveries.settle(row.id, claim, patch, this.clock.now()))
      this.metrics.callbackDeliveries.inc({ outcome: 'failed' });
  }

  private async housekeeping(now: number): Promise<void> {
    const expired = await this.deliveries.expire(this.ns, now, this.settings.maxAgeMs);
    if (expired > 0) this.metrics.callbackDeliveries.inc({ outcome: 'failed' }, expired);
    const { depth, oldestFinalAt } = await this.deliveries.outboxStats(this.ns);
    this.metrics.callbackOutboxDepth.set(depth);
    this.metrics.callbackOutboxOldestSeconds.set(oldestFinalAt === null ? 0 : Math.max(0, now - oldestFinalAt) / 1000);
    this.metrics.callbackHostsDown.set(await this.hosts.countDown(this.ns));
  }
}

function cut(s: string | null): string | null {
  return s === null ? null : cutText(s, 1024);
}
