import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CLOCK, type Clock, repeatEvery } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { DELAY_PUMP_MS, ReconcilerService, type Release } from '../dispatch/index.js';
import { type DueRef, JobDefinitionRepository, StagedInstances, StagedKind } from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import { DueDetectorService } from './due-detector.service.js';
import { JobSignals } from './job-signals.service.js';
import { LeaderElectionService } from './leader-election.service.js';
import { StagedTakeback } from './staged-takeback.js';
import { WheelTimer } from './timing-wheel/index.js';
import { TriggerService } from './trigger.service.js';

const WHEEL_SIZE = 512;
const LOAD_PAGE = 5000;

/** A job to fire (or stage) at its next fire time, a fire to release, or a delayed row to deliver. */
type WheelItem = { kind: 'fire'; ref: DueRef } | { kind: 'release' | 'deliver'; release: Release };

/**
 * The leader's duties (docs/trigger.md "The leader's loop"): page scan into the timing wheel, firing worker,
 * release of staged fires, delay-queue pump, reconciler and due detector. Nothing lives only here: losing
 * leadership drops the wheel and the next leader rebuilds it from MySQL. No database I/O on the wheel's timer.
 */
@Injectable()
export class SchedulerLoopService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SchedulerLoopService.name);
  private readonly names: string[];
  private running = false;
  private wheel: WheelTimer<WheelItem> | null = null;
  /** Job id -> identity of its wheel entry (see heldKey). */
  private readonly held = new Map<string, string>();
  private queue: DueRef[] = [];
  /** Releases in progress; shutdown waits for them. */
  private readonly releasing = new Set<Promise<void>>();
  /** Unsubscribes from job changes and delay-queue wake-ups (set while leading). */
  private stopListening: Array<() => Promise<void>> = [];
  /** Duties running now, by name; shutdown waits for them before connections close. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Stops the maintenance rounds (reconcile pass, due detector), set on the Clock while leading. */
  private stopMaintaining: (() => void) | null = null;
  /** Settles when this lead's first takeback, adoption and load are done: repair passes wait for it. */
  private started: Promise<void> = Promise.resolve();
  /** When this scheduler gained the lead (epoch ms): the due detector's grace starts there. */
  private leadingSince = 0;

  constructor(
    private readonly leader: LeaderElectionService,
    private readonly trigger: TriggerService,
    private readonly reconciler: ReconcilerService,
    private readonly detector: DueDetectorService,
    private readonly takeback: StagedTakeback,
    private readonly signals: JobSignals,
    private readonly jobs: JobDefinitionRepository,
    private readonly staged: StagedInstances,
    private readonly metrics: MetricsService,
    private readonly registry: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.names = [`tw-delay-pump-${leader.owner}`, `tw-load-${leader.owner}`];
  }

  async onApplicationBootstrap(): Promise<void> {
    this.leader.onChange((isLeader) => (isLeader ? this.startDuties() : this.stopDuties()));
    await this.leader.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopDuties();
    await Promise.all([...this.inFlight.values(), ...this.releasing]);
  }

  /** Reloads the wheel now (a job changed); runs after a load in progress, which may have read before it. */
  wake(): void {
    this.runAfterCurrent('load', () => this.load());
  }

  /** Pumps the delay queue now: an id due now or soon was queued. */
  pumpNow(): void {
    this.runAfterCurrent('delay pump', () => this.pump());
  }

  /** Takes what is due within the stage lead out of the delay queue; its releases wait on the wheel for their time. */
  private async pump(): Promise<void> {
    const releases = await this.reconciler.pumpDelayed(this.config.triggerStageLeadMs);
    if (this.running) this.holdReleases(releases, 'deliver');
  }

  /** Runs duty `name` now, or once more after the run in progress. */
  private runAfterCurrent(name: string, fn: () => Promise<unknown>): void {
    if (!this.running) return;
    const current = this.inFlight.get(name);
    if (current) void current.then(() => this.guard(name, fn));
    else void this.guard(name, fn);
  }

  /** Fires held on the wheel (for metrics and tests). */
  get wheelSize(): number {
    return this.wheel?.size ?? 0;
  }

  private startDuties(): void {
    if (this.running) return;
    this.running = true;
    this.leadingSince = this.clock.now();
    this.reconciler.setReporting(true);
    const { triggerTickMs, reconcileIntervalMs, triggerScanIntervalMs } = this.config;
    this.wheel = new WheelTimer<WheelItem>({
      tickMs: triggerTickMs,
      wheelSize: WHEEL_SIZE,
      startMs: this.clock.now(),
      now: () => this.clock.now(),
      schedule: (delayMs, fn) => {
        const t = setTimeout(fn, delayMs);
        return () => clearTimeout(t);
      },
      onExpired: (items) => this.onExpired(items),
    });
    this.stopMaintaining = repeatEvery(this.clock, reconcileIntervalMs, () => void this.maintain());
    this.registry.addInterval(
      this.names[0],
      setInterval(() => void this.guard('delay pump', () => this.pump()), DELAY_PUMP_MS),
    );
    this.registry.addInterval(
      this.names[1],
      setInterval(() => void this.guard('load', () => this.load()), triggerScanIntervalMs),
    );
    // Unreleased staged fires go to the misfire policy before the reconciler could push them late as SCHEDULE.
    this.started = this.guard('load', async () => {
      await this.takeback.run();
      await this.adoptStaged();
      await this.load();
    });
    void this.maintain();
    const listen = (what: string, subscribe: Promise<() => Promise<void>>) =>
      void subscribe.then(
        (off) => (this.running ? this.stopListening.push(off) : void off()),
        (err: Error) => this.logger.warn(`not listening for ${what}: ${err.message}`),
      );
    listen(
      'job changes (the page scan still sees them)',
      this.signals.onJobChanged(() => this.wake()),
    );
    listen(
      'delay-queue wake-ups (the pump still runs every 200 ms)',
      this.signals.onDelayDue(() => this.pumpNow()),
    );
  }

  private stopDuties(): void {
    this.running = false;
    for (const off of this.stopListening) void off();
    this.stopListening = [];
    this.stopMaintaining?.();
    this.stopMaintaining = null;
    for (const name of this.names) if (this.registry.doesExist('interval', name)) this.registry.deleteInterval(name);
    this.wheel?.close();
    this.wheel = null;
    this.held.clear();
    this.queue = [];
    this.metrics.wheelSize.set(0);
    this.reconciler.setReporting(false); // only the leader reports them; a former leader's values would freeze
  }

  /** Page scan of fires due within the horizon onto the wheel. */
  private async load(): Promise<void> {
    const until = this.clock.now() + this.config.triggerHorizonMs;
    let after: DueRef | undefined;
    for (;;) {
      const page = await this.jobs.findDueRefs(this.config.namespace, until, LOAD_PAGE, after);
      if (!this.running) return;
      for (const ref of page) this.hold(ref);
      if (page.length < LOAD_PAGE) break;
      after = page[page.length - 1];
    }
    this.metrics.wheelSize.set(this.wheelSize);
  }

  /**
   * Puts the previous leader's staged rows due after the last MISFIRE_THRESHOLD_MS on this wheel, released at their
   * due time; a double push is harmless (the claim is conditional). Older ones are the takeback's or the reconciler's.
   */
  private async adoptStaged(): Promise<void> {
    let after = { dueAt: this.clock.now() - this.config.misfireThresholdMs, id: '' };
    for (;;) {
      const rows = await this.staged.findStaged(this.config.namespace, after, LOAD_PAGE);
      if (!this.running) return;
      const releases = rows.map((r) => ({ id: r.id, appId: r.appId, at: r.dueAt, nodeId: r.nodeId, staged: r.staged }));
      this.holdReleases(releases.filter((r) => r.staged === StagedKind.FIRE));
      this.holdReleases(
        releases.filter((r) => r.staged === StagedKind.DELAYED),
        'deliver',
      );
      if (rows.length < LOAD_PAGE) return;
      after = { dueAt: rows[rows.length - 1].dueAt, id: rows[rows.length - 1].id };
    }
  }

  /** Puts a job's next fire on the wheel unless the same entry is held. */
  private hold(ref: DueRef): void {
    const key = heldKey(ref);
    if (!this.wheel || this.held.get(ref.id) === key) return;
    this.held.set(ref.id, key);
    this.wheel.add(ref.id, ref.stage ? ref.next - this.config.triggerStageLeadMs : ref.next, { kind: 'fire', ref });
  }

  /** Puts releases of fires (or delayed rows) on the wheel at their time; due ones are released at once. */
  private holdReleases(releases: Release[], kind: 'release' | 'deliver' = 'release'): void {
    const now = this.clock.now();
    const due = releases.filter((r) => r.at <= now);
    for (const release of releases)
      if (release.at > now) this.wheel?.add(`${kind}:${release.id}`, release.at, { kind, release });
    this.releaseNow(due, kind);
  }

  /** The wheel's callback: queues fires to write, starts releases; never waits. */
  private onExpired(items: WheelItem[]): void {
    const refs: DueRef[] = [];
    const fires: Release[] = [];
    const delayed: Release[] = [];
    for (const item of items) {
      if (item.kind === 'fire') refs.push(item.ref);
      else (item.kind === 'release' ? fires : delayed).push(item.release);
    }
    this.releaseNow(fires, 'release');
    this.releaseNow(delayed, 'deliver');
    if (refs.length === 0) return;
    for (const r of refs) if (this.held.get(r.id) === heldKey(r)) this.held.delete(r.id);
    this.queue.push(...refs);
    this.kick();
  }

  /** Starts one release (fires) or delivery (delayed rows); on failure the reconciler re-pushes. */
  private releaseNow(fires: Release[], kind: 'release' | 'deliver'): void {
    if (fires.length === 0 || !this.running) return;
    const send = kind === 'release' ? this.trigger.release(fires) : this.trigger.deliverDelayed(fires);
    const p: Promise<void> = send
      .catch((err: Error) =>
        this.logger.error(`${kind} of ${fires.length} row(s) failed, left to the reconciler: ${err.message}`),
      )
      .finally(() => this.releasing.delete(p));
    this.releasing.add(p);
  }

  /** Starts the drain, and again after it if work was queued meanwhile. */
  private kick(): void {
    void this.guard('fire', () => this.drain()).then(() => {
      if (this.running && this.queue.length > 0 && !this.inFlight.has('fire')) this.kick();
    });
  }

  /** Fires the queued refs; clustered, TRIGGER_FIRE_PARALLELISM pages of disjoint jobs at once (SQLite: one). */
  private async drain(): Promise<void> {
    const parallel = this.config.shape === 'cluster' ? this.config.triggerFireParallelism : 1;
    while (this.running && this.queue.length > 0) {
      const batches: DueRef[][] = [];
      while (batches.length < parallel && this.queue.length > 0)
        batches.push(this.queue.splice(0, this.config.triggerBatchSize));
      await Promise.all(
        batches.map(async (b) => {
          const fired = await this.trigger.fireRefs(b);
          if (!this.running) return;
          this.holdReleases(fired.releases);
          const until = this.clock.now() + this.config.triggerHorizonMs;
          for (const n of fired.next) if (n.next <= until) this.hold(n);
        }),
      );
    }
    this.metrics.wheelSize.set(this.wheelSize);
  }

  /** The leader's periodic repair pass and the due-but-not-fired check. */
  private async maintain(): Promise<void> {
    await this.started;
    await this.guard('reconcile', () => this.reconciler.reconcileOnce());
    await this.guard('due detector', () => this.detector.check(this.leadingSince));
  }

  /** Runs `fn` unless the duty is already running or duties stopped; logs instead of throwing. */
  private guard(name: string, fn: () => Promise<unknown>): Promise<void> {
    const running = this.inFlight.get(name);
    if (running) return running; // e.g. a running drain picks up what was queued meanwhile
    if (!this.running) return Promise.resolve();
    const p = fn()
      .then(() => undefined)
      .catch((err: Error) => this.logger.error(`${name} failed: ${err.message}`))
      .finally(() => this.inFlight.delete(name));
    this.inFlight.set(name, p);
    return p;
  }
}

/** Identity of a wheel entry: fire time and whether it is staged. */
function heldKey(ref: DueRef): string {
  return `${ref.next}:${ref.stage ? 'stage' : 'at'}`;
}
