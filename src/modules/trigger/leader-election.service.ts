import { Inject, Injectable, Logger, BeforeApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { LOCKS, type LockPort } from '../coordination/index.js';
import { MetricsService } from '../observability/index.js';

const LOCK = 'leader';
/** How long after the holder's lock expires a standby tries again (ms): Redis drops a key 1 ms past its PX. */
export const TAKEOVER_MARGIN_MS = 5;

/** The lock's PX (ms): the lease less a twelfth, at most 250 ms, the time of a standby's try at its expiry. */
export function leaderLockTtlMs(leaseMs: number): number {
  return leaseMs - Math.min(250, Math.floor(leaseMs / 12));
}

/**
 * Scheduler leadership (docs/trigger.md "Leader handover"): the `leader` lock (SET NX PX {@link leaderLockTtlMs}),
 * renewed every third of LEADER_LEASE_MS (≥ 100 ms) on the Clock, released on shutdown. A standby tries as often and,
 * refused, again at the holder's expiry: it leads within LEADER_LEASE_MS of a killed leader. A failed or refused
 * renewal steps down at once. Two leaders cannot double-fire anyway (job_instance's unique key).
 */
@Injectable()
export class LeaderElectionService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(LeaderElectionService.name);
  readonly owner = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private leader = false;
  /** Cancels the pending round's timer; null when not campaigning. */
  private cancelRound: (() => void) | null = null;
  private roundAt = 0;
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
    this.schedule(this.step);
    await this.campaign();
  }

  /** One round: renew if leader, else try to acquire (refused: next round at the holder's expiry, if sooner). */
  async campaign(): Promise<void> {
    let holds = false;
    const ttl = leaderLockTtlMs(this.config.leaderLeaseMs);
    try {
      if (this.leader) holds = await this.coordination.renewLock(LOCK, this.owner, ttl);
      else {
        const attempt = await this.coordination.tryAcquireLock(LOCK, this.owner, ttl);
        holds = attempt.held;
        if (!attempt.held) this.tryAgainAt(this.clock.now() + attempt.holderTtlMs + TAKEOVER_MARGIN_MS);
      }
    } catch (err) {
      this.logger.warn(`leader campaign failed: ${(err as Error).message}`);
    }
    this.set(holds);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.cancelRound?.();
    this.cancelRound = null;
    if (this.leader) {
      this.releasing = true;
      this.set(false);
      await this.coordination.releaseLock(LOCK, this.owner).catch(() => undefined);
    }
  }

  private get step(): number {
    return Math.max(100, Math.floor(this.config.leaderLeaseMs / 3));
  }

  /** Sets the one pending round `delayMs` from now; a round sets the next a step later as it fires. */
  private schedule(delayMs: number): void {
    this.cancelRound?.();
    this.roundAt = this.clock.now() + delayMs;
    this.cancelRound = this.clock.schedule(delayMs, () => {
      this.schedule(this.step);
      void this.campaign();
    });
  }

  /** Moves the pending round up to `atMs` when campaigning, not leading and it comes sooner. */
  private tryAgainAt(atMs: number): void {
    if (this.cancelRound === null || this.leader || atMs >= this.roundAt) return;
    this.schedule(Math.max(0, atMs - this.clock.now()));
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
