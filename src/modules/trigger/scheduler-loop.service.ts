import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { ReconcilerService } from '../dispatch/index.js';
import { LeaderElectionService } from './leader-election.service.js';
import { TriggerService } from './trigger.service.js';

const DELAY_PUMP_MS = 200;

/**
 * Runs the leader's duties while this scheduler leads (DESIGN §5, §6): the fire loop, the delay-queue
 * pump and the reconciler. The fire loop sleeps until the earliest next_fire_time, never longer than
 * TRIGGER_SCAN_INTERVAL_MS (so jobs created elsewhere are seen within that), and never ticks when idle
 * beyond that cap. A failing pass is logged and retried on the next wake; it never kills the loop.
 */
@Injectable()
export class SchedulerLoopService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(SchedulerLoopService.name);
  private readonly names: string[];
  private fireTimer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(
    private readonly leader: LeaderElectionService,
    private readonly trigger: TriggerService,
    private readonly reconciler: ReconcilerService,
    private readonly registry: SchedulerRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.names = [`tw-reconcile-${leader.owner}`, `tw-delay-pump-${leader.owner}`];
  }

  async onApplicationBootstrap(): Promise<void> {
    this.leader.onChange((isLeader) => (isLeader ? this.startDuties() : this.stopDuties()));
    await this.leader.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopDuties();
    await Promise.all(this.inFlight.values());
  }

  /** Wakes the fire loop now (a job was created or changed in this process). */
  wake(): void {
    if (!this.running) return;
    this.schedule(0);
  }

  private startDuties(): void {
    if (this.running) return;
    this.running = true;
    this.registry.addInterval(this.names[0], setInterval(() => void this.guard('reconcile', () => this.reconciler.reconcileOnce()), this.config.reconcileIntervalMs));
    this.registry.addInterval(this.names[1], setInterval(() => void this.guard('delay pump', () => this.reconciler.pumpDelayed()), DELAY_PUMP_MS));
    void this.guard('reconcile', () => this.reconciler.reconcileOnce());
    this.schedule(0);
  }

  private stopDuties(): void {
    this.running = false;
    for (const name of this.names) if (this.registry.doesExist('interval', name)) this.registry.deleteInterval(name);
    if (this.fireTimer) clearTimeout(this.fireTimer);
    this.fireTimer = null;
  }

  private schedule(delayMs: number): void {
    if (this.fireTimer) clearTimeout(this.fireTimer);
    this.fireTimer = setTimeout(() => void this.fireOnce(), Math.max(0, delayMs));
  }

  private async fireOnce(): Promise<void> {
    if (!this.running || this.inFlight.has('fire')) return;
    await this.guard('fire', () => this.trigger.firePass());
    if (!this.running) return;
    let next: number | null = null;
    await this.guard('earliest', async () => {
      next = await this.trigger.earliestNextFire();
    });
    const cap = this.config.triggerScanIntervalMs;
    const wait = next === null ? cap : Math.min(cap, (next as number) - this.clock.now());
    this.schedule(wait);
  }

  /** Duties running now, by name; shutdown waits for them before connections close. */
  private readonly inFlight = new Map<string, Promise<void>>();

  /** Runs `fn` unless the same duty is still running (or duties stopped); logs instead of throwing. */
  private guard(name: string, fn: () => Promise<unknown>): Promise<void> {
    const running = this.inFlight.get(name);
    if (running) return running;
    if (!this.running) return Promise.resolve();
    const p = fn()
      .then(() => undefined)
      .catch((err: Error) => this.logger.error(`${name} failed: ${err.message}`))
      .finally(() => this.inFlight.delete(name));
    this.inFlight.set(name, p);
    return p;
  }
}
