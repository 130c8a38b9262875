import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, type Clock, repeatEvery } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { INSTANCE_STOP_CHANNEL, SIGNALS, type SignalPort } from '../coordination/index.js';
import { ExecutionInstances } from '../metadata/index.js';
import { AbortReason, abortAttempt } from './abort-reason.js';
import { type RunningAttempt, TaskRunner } from './task-runner.service.js';

/**
 * Keeps the leases of the attempts running here (docs/execution.md "Leases and revocation"): every LEASE_RENEW_MS
 * each is extended to now + LEASE_MS, and one whose row is no longer its own is aborted (LEASE_LOST). Revocation
 * ({@link checkRevoked}, REVOKED) runs every heartbeat and at once on a stop signal naming an instance run here.
 */
@Injectable()
export class LeaseKeeper {
  private readonly logger = new Logger(LeaseKeeper.name);
  private stopRenewing: (() => void) | null = null;
  private unsubscribeStop: (() => Promise<void>) | null = null;
  private check: Promise<void> | null = null;
  private checkAgain = false;

  constructor(
    @Inject(TaskRunner) private readonly runner: Pick<TaskRunner, 'running' | 'runs'>,
    @Inject(ExecutionInstances) private readonly rows: Pick<ExecutionInstances, 'renewLease' | 'notRunningAnyMore'>,
    @Inject(SIGNALS) private readonly signals: SignalPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Subscribes to stop signals (failing that, cancels wait for the next heartbeat) and starts renewing. */
  async start(): Promise<void> {
    this.unsubscribeStop = await this.signals
      .subscribe(INSTANCE_STOP_CHANNEL, (id) => {
        if (!this.runner.runs(id)) return;
        void this.checkRevoked().catch((err: Error) =>
          this.logger.warn(`stop check failed (the next heartbeat checks again): ${err.message}`),
        );
      })
      .catch((err: Error) => {
        const next = 'cancels reach running handlers at the next heartbeat';
        this.logger.warn(`stop signals not subscribed (${next}): ${err.message}`);
        return null;
      });
    this.stopRenewing = repeatEvery(this.clock, this.config.leaseRenewMs, () => void this.renewLeases());
  }

  stopRenewal(): void {
    this.stopRenewing?.();
    this.stopRenewing = null;
  }

  async unsubscribe(): Promise<void> {
    await this.unsubscribeStop?.().catch(() => undefined);
    this.unsubscribeStop = null;
  }

  /** One renewal round; a renewal that fails (database away) aborts nothing: the lease may still hold. */
  async renewLeases(): Promise<void> {
    const until = this.clock.now() + this.config.leaseMs;
    for (const att of this.runner.running.values()) {
      const ok = await this.rows
        .renewLease(att.instanceId, att.fencingToken, until, this.clock.now())
        .catch(() => true);
      if (!ok) abortAttempt(att.controller, AbortReason.LEASE_LOST);
    }
  }

  /** One read of the running attempts; asked during a check, it runs once more after it (never an older read). */
  checkRevoked(): Promise<void> {
    if (this.check) {
      this.checkAgain = true;
      return this.check;
    }
    const run = async () => {
      do {
        this.checkAgain = false;
        for (const att of await this.revokedAttempts()) abortAttempt(att.controller, AbortReason.REVOKED);
      } while (this.checkAgain);
    };
    this.check = run().finally(() => (this.check = null));
    return this.check;
  }

  /** The running attempts whose row was cancelled or taken away since they started. */
  private async revokedAttempts(): Promise<RunningAttempt[]> {
    const running = [...this.runner.running.values()];
    const gone = await this.rows.notRunningAnyMore(
      running.map((a) => ({ id: a.instanceId, fencingToken: a.fencingToken, attempt: a })),
    );
    return gone.map((g) => g.attempt);
  }
}
