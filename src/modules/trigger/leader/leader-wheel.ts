import { Injectable, Inject, Logger } from '@nestjs/common';
import { CLOCK, type Clock, instanceTrace } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { DelayPump, type Release } from '../../dispatch/index.js';
import {
  type DueRef,
  JobDefinitionRepository,
  type JobInstance,
  StagedInstances,
  StagedKind,
  type StagedRef,
} from '../../metadata/index.js';
import { MetricsService } from '../../observability/index.js';
import { rowSpan, Tracing } from '../../tracing/index.js';
import { StagedTakeback } from '../staged-takeback.js';
import { type Cancel, WheelTimer } from '../timing-wheel/index.js';
import { TriggerService } from '../trigger.service.js';

const WHEEL_SIZE = 512;
const LOAD_PAGE = 5000;

/** A job to fire (or stage) at its next fire time, a fire to release, or a delayed row to deliver. */
type WheelItem = { kind: 'fire'; ref: DueRef } | { kind: 'release' | 'deliver'; release: Release };

/**
 * What a lead's wheel needs from its owner, the `wheel` duty of `LeaderDuties`: the wheel's one timer, the wake-up
 * of the firing worker ({@link LeaderWheel.drain}), and shutdown's wait for a release in flight.
 */
export interface WheelOwner {
  schedule(delayMs: number, fn: () => void): Cancel;
  wake(): void;
  track(work: Promise<void>): void;
}

/** Opens one {@link LeaderWheel} per lead, with the trigger module's parts it works with. */
@Injectable()
export class LeaderWheels {
  constructor(
    readonly trigger: TriggerService,
    readonly jobs: JobDefinitionRepository,
    readonly staged: StagedInstances,
    readonly takeback: StagedTakeback,
    readonly delayPump: DelayPump,
    readonly metrics: MetricsService,
    @Inject(APP_CONFIG) readonly config: AppConfig,
    @Inject(CLOCK) readonly clock: Clock,
    readonly tracing: Tracing,
  ) {}

  /** A wheel for the lead that `owner` runs; closed by {@link LeaderWheel.close} when the lead ends. */
  open(owner: WheelOwner): LeaderWheel {
    return new LeaderWheel(this, owner);
  }
}

/**
 * One lead's timing wheel (docs/trigger.md "The leader's loop"): the page scan and the adoption of staged rows put
 * fires on it, its expiry queues them for the firing worker and starts releases, never waiting and with no database
 * I/O on its timer. Nothing lives only here: closed when the lead ends, it holds, stages and releases nothing more,
 * and the next leader rebuilds it from MySQL.
 */
export class LeaderWheel {
  private readonly logger = new Logger(LeaderWheel.name);
  private readonly trigger: TriggerService;
  private readonly jobs: JobDefinitionRepository;
  private readonly staged: StagedInstances;
  private readonly takeback: StagedTakeback;
  private readonly delayPump: DelayPump;
  private readonly metrics: MetricsService;
  private readonly config: AppConfig;
  private readonly clock: Clock;
  private readonly tracing: Tracing;
  private wheel: WheelTimer<WheelItem> | null;
  /** Job id -> identity of its wheel entry (see heldKey). */
  private readonly held = new Map<string, string>();
  private queue: DueRef[] = [];

  constructor(
    parts: LeaderWheels,
    private readonly owner: WheelOwner,
  ) {
    this.trigger = parts.trigger;
    this.jobs = parts.jobs;
    this.staged = parts.staged;
    this.takeback = parts.takeback;
    this.delayPump = parts.delayPump;
    this.metrics = parts.metrics;
    this.config = parts.config;
    this.clock = parts.clock;
    this.tracing = parts.tracing;
    this.wheel = new WheelTimer<WheelItem>({
      tickMs: this.config.triggerTickMs,
      wheelSize: WHEEL_SIZE,
      startMs: this.clock.now(),
      now: () => this.clock.now(),
      schedule: (delayMs, fn) => owner.schedule(delayMs, fn),
      onExpired: (items) => this.onExpired(items),
    });
  }

  /** Fires held on the wheel (0 once closed). */
  get wheelSize(): number {
    return this.wheel?.size ?? 0;
  }

  /** Drops the wheel and what was queued for firing, and the size gauge to 0 (only the leader reports it). */
  close(): void {
    this.wheel?.close();
    this.wheel = null;
    this.held.clear();
    this.queue = [];
    this.metrics.wheelSize.set(0);
  }

  /** False once closed: what a run still in flight then reads or writes stays off the wheel. */
  private get running(): boolean {
    return this.wheel !== null;
  }

  /** A lead's first load: takeback, adoption of staged rows, page scan, in this order. */
  async firstLoad(signal: AbortSignal): Promise<void> {
    // Unreleased staged fires go to the misfire policy before the reconciler could push them late as SCHEDULE.
    await this.takeback.run();
    if (signal.aborted) return;
    await this.adoptStaged();
    await this.load();
  }

  /** Takes what is due within the stage lead out of the delay queue; staged rows wait on the wheel for their time. */
  async pump(): Promise<void> {
    this.holdReleases(await this.delayPump.pumpDelayed(this.config.triggerStageLeadMs), 'deliver');
  }

  /** Page scan of fires due within the horizon onto the wheel. */
  async load(): Promise<void> {
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
  async adoptStaged(): Promise<void> {
    let after = { dueAt: this.clock.now() - this.config.misfireThresholdMs, id: '' };
    for (;;) {
      const rows = await this.staged.findStaged(this.config.namespace, after, LOAD_PAGE);
      if (!this.running) return;
      const release = (r: StagedRef) => ({
        id: r.id,
        appId: r.appId,
        at: r.dueAt,
        priority: r.priority,
        nodeId: r.nodeId,
      });
      this.holdReleases(rows.filter((r) => r.staged === StagedKind.FIRE).map(release));
      this.holdReleases(rows.filter((r) => r.staged === StagedKind.DELAYED).map(release), 'deliver');
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
  holdReleases(releases: Release[], kind: 'release' | 'deliver' = 'release'): void {
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
    this.owner.wake();
  }

  /** Starts one release (fires) or delivery (delayed rows); on failure the reconciler re-pushes. */
  private releaseNow(fires: Release[], kind: 'release' | 'deliver'): void {
    if (fires.length === 0 || !this.running) return;
    const send = kind === 'release' ? this.trigger.release(fires) : this.trigger.deliverDelayed(fires);
    this.owner.track(
      send.catch((err: Error) =>
        this.logger.error(`${kind} of ${fires.length} row(s) failed, left to the reconciler: ${err.message}`),
      ),
    );
  }

  /** Fires the queued refs; clustered, TRIGGER_FIRE_PARALLELISM pages of disjoint jobs at once (SQLite: one). */
  async drain(): Promise<void> {
    const parallel = this.config.shape === 'cluster' ? this.config.triggerFireParallelism : 1;
    while (this.running && this.queue.length > 0) {
      const batches: DueRef[][] = [];
      while (batches.length < parallel && this.queue.length > 0)
        batches.push(this.queue.splice(0, this.config.triggerBatchSize));
      await Promise.all(
        batches.map(async (b) => {
          const start = this.clock.now();
          const fired = await this.trigger.fireRefs(b);
          this.traced(fired.fired, start);
          if (!this.running) return;
          this.holdReleases(fired.releases);
          const until = this.clock.now() + this.config.triggerHorizonMs;
          for (const n of fired.next) if (n.next <= until) this.hold(n);
        }),
      );
    }
    if (this.running) this.metrics.wheelSize.set(this.wheelSize);
  }

  /** Each fire written: the root span of its trace (its stored context), and a debug line with its trace id. */
  private traced(rows: JobInstance[], startMs: number): void {
    const endMs = this.clock.now();
    for (const row of rows) {
      const span = { context: instanceTrace(row), parentSpanId: null, startMs, endMs };
      this.tracing.record(
        rowSpan('tickwheel.fire', row, span, { attributes: { 'tickwheel.fire_time': row.fireTime } }),
      );
      this.logger.debug({ traceId: row.traceId, msg: `instance ${row.id} of job ${row.jobCode} fired` });
    }
  }
}

/** Identity of a wheel entry: fire time and whether it is staged. */
function heldKey(ref: DueRef): string {
  return `${ref.next}:${ref.stage ? 'stage' : 'at'}`;
}
