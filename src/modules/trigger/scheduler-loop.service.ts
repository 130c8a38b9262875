import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { ReconcilerService } from '../dispatch/index.js';
import { JobDefinitionRepository } from '../metadata/index.js';
import { MetricsService } from '../observability/index.js';
import { DueDetectorService } from './due-detector.service.js';
import { LeaderElectionService } from './leader-election.service.js';
import { WheelTimer } from './timing-wheel/index.js';
import { TriggerService } from './trigger.service.js';

const DELAY_PUMP_MS = 200;
const WHEEL_SIZE = 512;
const LOAD_PAGE = 5000;

type FireRef = { id: string; next: number };

/**
 * The leader's duties (DESIGN §5, §6), run only while this scheduler leads:
 * - **Loader**: every TRIGGER_SCAN_INTERVAL_MS (and on `wake()`), a keyset-paged read of (id,
 *   next_fire_time) for enabled jobs due within TRIGGER_HORIZON_MS puts each fire on the timing wheel
 *   (keyed by job, so a moved schedule replaces its entry). Farther jobs stay in MySQL.
 * - **Wheel**: one timer, set to the next non-empty bucket; an idle leader does no work between scans.
 *   Its callback only queues the due batch — no I/O on the wheel's timer.
 * - **Firing worker**: drains the queue through `TriggerService.fireRefs` (one transaction per page:
 *   instance rows + next_fire_time), then puts each job's new next fire straight back on the wheel when
 *   it falls inside the horizon, so fast schedules never wait for a scan.
 * - **Maintenance**: the delay-queue pump, the reconciler and the due-but-not-fired detector.
 * Losing leadership drops the wheel; the next leader rebuilds it from MySQL (nothing lives only here).
 */
@Injectable()
export class SchedulerLoopService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SchedulerLoopService.name);
  private readonly names: string[];
  private running = false;
  private wheel: WheelTimer<FireRef> | null = null;
  private readonly held = new Map<string, number>();
  private queue: FireRef[] = [];
  /** Duties running now, by name; shutdown waits for them before connections close. */
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly leader: LeaderElectionService,
    private readonly trigger: TriggerService,
    private readonly reconciler: ReconcilerService,
    private readonly detector: DueDetectorService,
    private readonly jobs: JobDefinitionRepository,
    private readonly metrics: MetricsService,
    private readonly registry: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.names = [`tw-reconcile-${leader.owner}`, `tw-delay-pump-${leader.owner}`, `tw-load-${leader.owner}`];
  }

  async onApplicationBootstrap(): Promise<void> {
    this.leader.onChange((isLeader) => (isLeader ? this.startDuties() : this.stopDuties()));
    await this.leader.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopDuties();
    await Promise.all(this.inFlight.values());
  }

  /** Reloads the wheel now (a job was created or changed in this process). */
  wake(): void {
    if (this.running) void this.guard('load', () => this.load());
  }

  /** Fires held on the wheel (for metrics and tests). */
  get wheelSize(): number {
    return this.wheel?.size ?? 0;
  }

  private startDuties(): void {
    if (this.running) return;
    this.running = true;
    const { triggerTickMs, reconcileIntervalMs, triggerScanIntervalMs } = this.config;
    this.wheel = new WheelTimer<FireRef>({
      tickMs: triggerTickMs,
      wheelSize: WHEEL_SIZE,
      startMs: this.clock.now(),
      now: () => this.clock.now(),
      schedule: (delayMs, fn) => {
        const t = setTimeout(fn, delayMs);
        return () => clearTimeout(t);
      },
      onExpired: (refs) => this.enqueue(refs),
    });
    this.registry.addInterval(this.names[0], setInterval(() => void this.maintain(), reconcileIntervalMs));
    this.registry.addInterval(this.names[1], setInterval(() => void this.guard('delay pump', () => this.reconciler.pumpDelayed()), DELAY_PUMP_MS));
    this.registry.addInterval(this.names[2], setInterval(() => void this.guard('load', () => this.load()), triggerScanIntervalMs));
    void this.guard('load', () => this.load());
    void this.maintain();
  }

  private stopDuties(): void {
    this.running = false;
    for (const name of this.names) if (this.registry.doesExist('interval', name)) this.registry.deleteInterval(name);
    this.wheel?.close();
    this.wheel = null;
    this.held.clear();
    this.queue = [];
    this.metrics.wheelSize.set(0);
  }

  /** Page scan of fires due within the horizon onto the wheel. */
  private async load(): Promise<void> {
    const until = this.clock.now() + this.config.triggerHorizonMs;
    let after: FireRef | undefined;
    for (;;) {
      const page = await this.jobs.findDueRefs(this.config.namespace, until, LOAD_PAGE, after);
      if (!this.running) return;
      for (const ref of page) this.hold(ref);
      if (page.length < LOAD_PAGE) break;
      after = page[page.length - 1];
    }
    this.metrics.wheelSize.set(this.wheelSize);
  }

  private hold(ref: FireRef): void {
    if (!this.wheel || this.held.get(ref.id) === ref.next) return;
    this.held.set(ref.id, ref.next);
    this.wheel.add(ref.id, ref.next, ref);
  }

  /** The wheel's callback: queue the batch, start the worker; nothing else happens on the timer. */
  private enqueue(refs: FireRef[]): void {
    for (const r of refs) if (this.held.get(r.id) === r.next) this.held.delete(r.id);
    this.queue.push(...refs);
    this.kick();
  }

  /** Starts the drain; if one was just finishing, starts another once it has, so nothing stays queued. */
  private kick(): void {
    void this.guard('fire', () => this.drain()).then(() => {
      if (this.running && this.queue.length > 0 && !this.inFlight.has('fire')) this.kick();
    });
  }

  /**
   * Fires what the wheel queued, oldest first. Clustered, up to TRIGGER_FIRE_PARALLELISM pages run at once on
   * separate connections (pages hold disjoint jobs, so their transactions never wait on each other);
   * SQLite has one connection and fires one page at a time.
   */
  private async drain(): Promise<void> {
    const parallel = this.config.shape === 'cluster' ? this.config.triggerFireParallelism : 1;
    while (this.running && this.queue.length > 0) {
      const batches: FireRef[][] = [];
      while (batches.length < parallel && this.queue.length > 0) batches.push(this.queue.splice(0, this.config.triggerBatchSize));
      const nexts = (await Promise.all(batches.map((b) => this.trigger.fireRefs(b)))).flatMap((f) => f.next);
      const until = this.clock.now() + this.config.triggerHorizonMs;
      for (const n of nexts) if (n.next <= until) this.hold(n);
    }
    this.metrics.wheelSize.set(this.wheelSize);
  }

  /** The leader's periodic repair pass and the due-but-not-fired check. */
  private async maintain(): Promise<void> {
    await this.guard('reconcile', () => this.reconciler.reconcileOnce());
    await this.guard('due detector', () => this.detector.check());
  }

  /** Runs `fn` unless the same duty is still running (or duties stopped); logs instead of throwing. */
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
