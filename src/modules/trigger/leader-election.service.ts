import { Inject, Injectable, Logger, BeforeApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CLOCK, type Clock, repeatEvery } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { LOCKS, type LockPort } from '../coordination/index.js';
import { MetricsService } from '../observability/index.js';

const LOCK = 'leader';

/**
 * Scheduler leadership (docs/trigger.md): one scheduler holds the `leader` lock (SET NX PX), renews it every
 * third of LEADER_LEASE_MS (at least 100 ms) on the Clock, and releases it on shutdown; a standby tries as
 * often and takes over within one TTL. A failed or refused renewal steps down at once. Two leaders at once
 * cannot double-fire anyway: the unique key of job_instance makes the second insert a no-op.
 */
@Injectable()
export class LeaderElectionService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(LeaderElectionService.name);
  readonly owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private leader = false;
  /** Stops the campaign rounds; null when not campaigning. */
  private stopRounds: (() => void) | null = null;
  private listeners: Array<(leader: boolean) => void> = [];
  private releasing = false;

  constructor(
    @Inject(LOCKS) private readonly coordination: LockPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  get isLeader(): boolean {
    return this.leader;
  }

  /** Calls `fn(true)` on gaining and `fn(false)` on losing leadership. */
  onChange(fn: (leader: boolean) => void): void {
    this.listeners.push(fn);
  }

  /** Starts campaigning; the first round runs before this resolves, then one every third of the lease. */
  async start(): Promise<void> {
    await this.campaign();
    const every = Math.max(100, Math.floor(this.config.leaderLeaseMs / 3));
    this.stopRounds = repeatEvery(this.clock, every, () => void this.campaign());
  }

  /** One round: renew if leader, else try to acquire. Errors count as a lost round. */
  async campaign(): Promise<void> {
    let holds = false;
    try {
      holds = this.leader
        ? await this.coordination.renewLock(LOCK, this.owner, this.config.leaderLeaseMs)
        : await this.coordination.tryAcquireLock(LOCK, this.owner, this.config.leaderLeaseMs);
    } catch (err) {
      this.logger.warn(`leader campaign failed: ${(err as Error).message}`);
    }
    this.set(holds);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopRounds?.();
    this.stopRounds = null;
    if (this.leader) {
      this.releasing = true;
      this.set(false);
      await this.coordination.releaseLock(LOCK, this.owner).catch(() => undefined);
    }
  }

  private set(holds: boolean): void {
    if (holds === this.leader) return;
    this.leader = holds;
    this.metrics.leader.set(holds ? 1 : 0);
    if (holds) this.metrics.leaderAcquisitions.inc();
    this.logger.log(
      holds
        ? `became leader (${this.owner})`
        : this.releasing
          ? `released leadership (${this.owner}, shutting down)`
          : `lost leadership (${this.owner})`,
    );
    for (const fn of this.listeners) fn(holds);
  }
}
