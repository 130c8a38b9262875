import { setMaxListeners } from 'node:events';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { REGISTRY_VIEW_MS } from '../coordination/index.js';
import { ClaimLoop } from './claim-loop.js';
import { sleep } from './clock-timers.js';
import { HandlerRegistry } from './handler-registry.service.js';
import { LeaseKeeper } from './lease-keeper.js';
import { NodeMembership } from './node-membership.js';
import { ShutdownDrain } from './shutdown-drain.js';
import { TaskRunner } from './task-runner.service.js';

/**
 * The executor role's lifecycle (docs/execution.md): {@link NodeMembership}, {@link LeaseKeeper},
 * {@link ClaimLoop}, {@link ShutdownDrain}. On SIGTERM: stop claiming, beat on with no handlers advertised (live,
 * so leases hold, but no candidate), hand back what has not started, give running work
 * EXECUTOR_SHUTDOWN_GRACE_MS, abort and hand back the rest, deregister.
 */
@Injectable()
export class ExecutorService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ExecutorService.name);
  private stopping = false;
  private readonly shutdown = new AbortController();
  /** While set (shutdown), each beat hands back what arrived since. */
  private draining = false;
  private handedBack = 0;

  constructor(
    private readonly runner: TaskRunner,
    private readonly handlers: HandlerRegistry,
    private readonly membership: NodeMembership,
    private readonly leases: LeaseKeeper,
    private readonly claims: ClaimLoop,
    private readonly drain: ShutdownDrain,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** This node's id (set once bootstrapped). */
  get nodeId(): string {
    return this.membership.nodeId;
  }

  async onApplicationBootstrap(): Promise<void> {
    setMaxListeners(0, this.shutdown.signal); // one listener per running attempt, up to EXECUTOR_CONCURRENCY
    const nodeId = await this.membership.register();
    await this.beat();
    await this.leases.start();
    this.membership.startBeating(() => this.beat());
    this.claims.start(nodeId, this.shutdown.signal);
    this.logger.log(
      `executor ${nodeId} up: handlers [${this.handlers.names().join(', ')}], ` +
        `${this.config.executorConcurrency} workers`,
    );
  }

  /** Graceful stop; returns once nothing runs here and the node is deregistered. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.membership.registered || this.stopping) return;
    this.stopping = true;
    const stopped = this.claims.stop();
    await this.beat(); // advertise no handlers at once: dispatchers stop choosing this node
    const drainAdvertised = this.clock.now();
    await stopped;
    this.handedBack = await this.drain.handBackQueued(this.nodeId);
    this.draining = true;
    const { running, aborted } = await this.drain.awaitRunning(
      () => this.claims.inFlight,
      () => this.shutdown.abort(),
    );
    this.draining = false;
    this.leases.stopRenewal();
    await this.membership.stop();
    await this.leases.unsubscribe();
    // A dispatcher's registry view may be REGISTRY_VIEW_MS old: what it still pushes lands before this hand-back.
    await sleep(this.clock, Math.max(0, drainAdvertised + 2 * REGISTRY_VIEW_MS - this.clock.now()));
    this.handedBack += await this.drain.handBackQueued(this.nodeId);
    await this.membership.deregister();
    this.logger.log(
      `executor ${this.nodeId} stopped: ${running - aborted} of ${running} running finished within the ` +
        `grace, ${aborted} handed back aborted, ${this.handedBack} queued handed back`,
    );
  }

  /** Heartbeat, revocation check, failed acks again; it goes on while draining (a silent node loses its leases). */
  private async beat(): Promise<void> {
    try {
      await this.membership.heartbeat(this.runner.running.size, this.stopping);
      await this.leases.checkRevoked();
      await this.claims.retryAcks();
    } catch (err) {
      this.logger.warn(`heartbeat failed: ${(err as Error).message}`);
    }
    if (this.draining) this.handedBack += await this.drain.handBackQueued(this.nodeId);
  }
}
