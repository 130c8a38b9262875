import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CLOCK, type Clock } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { DELAY_PUMP_MS, ReconcilerService } from '../../dispatch/index.js';
import { DueDetectorService } from '../due-detector.service.js';
import { JobSignals } from '../job-signals.service.js';
import { LeaderElectionService } from '../leader-election.service.js';
import { RetentionService } from '../retention.service.js';
import { type Duty, DutyRunner } from './duty-runner.js';
import { registeredTimers } from './duty-timers.js';
import { LeaderGauges } from './leader-gauges.js';
import { type LeaderWheel, LeaderWheels } from './leader-wheel.js';

/**
 * The leader's duties (docs/trigger.md "The leader's loop"): which, how often, woken by what, run by a
 * {@link DutyRunner} on the Clock while this scheduler leads; the services keep the work. Shutdown waits for the
 * runs and releases in flight before the connections close.
 */
@Injectable()
export class LeaderDuties implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(LeaderDuties.name);
  private readonly runner: DutyRunner;
  /** This lead's wheel; null while not leading. */
  private wheel: LeaderWheel | null = null;

  constructor(
    private readonly leader: LeaderElectionService,
    private readonly wheels: LeaderWheels,
    private readonly reconciler: ReconcilerService,
    private readonly detector: DueDetectorService,
    private readonly gauges: LeaderGauges,
    private readonly retention: RetentionService,
    private readonly signals: JobSignals,
    registry: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) clock: Clock,
  ) {
    this.runner = new DutyRunner(this.duties(), registeredTimers(clock, registry), clock, this.logger);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.leader.onChange((isLeader) => (isLeader ? this.runner.start() : this.runner.stop()));
    await this.leader.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.runner.stop();
    await this.runner.idle();
  }

  /** Fires held on this lead's wheel (0 while not leading). */
  get wheelSize(): number {
    return this.wheel?.wheelSize ?? 0;
  }

  /** Whether a run of duty `name` is in flight. */
  isRunning(name: string): boolean {
    return this.runner.isRunning(name);
  }

  /** The duties in start order: the wheel exists before the first load, which the repair passes wait for. */
  private duties(): Duty[] {
    const { triggerScanIntervalMs, reconcileIntervalMs, retention } = this.config;
    const duties: Duty[] = [
      {
        name: 'wheel',
        every: 0,
        begin: (lead) => {
          this.wheel = this.wheels.open(lead);
        },
        end: () => {
          this.wheel?.close();
          this.wheel = null;
        },
        run: () => this.onWheel((wheel) => wheel.drain()),
      },
      {
        name: 'load',
        every: triggerScanIntervalMs,
        atStart: true,
        wakeOn: (wake) => this.signals.onJobChanged(wake),
        run: (ctx) => this.onWheel((wheel) => (ctx.first ? wheel.firstLoad(ctx.signal) : wheel.load())),
      },
      {
        name: 'pump',
        every: DELAY_PUMP_MS,
        wakeOn: (wake) => this.signals.onDelayDue(wake),
        run: () => this.onWheel((wheel) => wheel.pump()),
      },
      {
        name: 'reconcile',
        every: reconcileIntervalMs,
        atStart: true,
        after: 'load',
        run: () => this.reconciler.reconcileOnce(),
      },
      {
        name: 'due-detector',
        every: reconcileIntervalMs,
        atStart: true,
        after: 'load',
        run: (ctx) => this.detector.check(ctx.leadingSince),
      },
      {
        name: 'gauges',
        every: reconcileIntervalMs,
        atStart: true,
        run: (ctx) => this.gauges.refresh(ctx.signal),
        end: () => this.gauges.clear(),
      },
    ];
    if (this.retention.enabled)
      duties.push({ name: 'retention', every: retention.intervalMs, run: (ctx) => this.retention.pass(ctx.signal) });
    return duties;
  }

  /** Runs `work` on the wheel of the lead the run started in. */
  private async onWheel(work: (wheel: LeaderWheel) => Promise<void>): Promise<void> {
    if (this.wheel) await work(this.wheel);
  }
}
