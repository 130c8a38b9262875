import { setMaxListeners } from 'node:events';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { COORDINATION, type CoordinationPort, NodeAdvert } from '../coordination/coordination.port.js';
import { ExecutorNodeRepository } from '../metadata/index.js';
import { HandlerRegistry } from './handler-registry.service.js';
import { TaskRunner } from './task-runner.service.js';

const CLAIM_WAIT_MS = 1000;
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The executor role of one process (DESIGN §6, §7): registers the node (id `<host>-<yyyymmdd>-<seq>`,
 * the sequence made unique by the executor_node table), heartbeats every HEARTBEAT_INTERVAL_MS with its
 * handlers, capacity and load, claims ids from its own reliable queue while a worker slot is free
 * (EXECUTOR_CONCURRENCY), and renews the leases of what it runs every LEASE_RENEW_MS — a lease it can no
 * longer renew aborts the handler. On shutdown it stops claiming, lets running work finish within a grace
 * period, then aborts the rest, which {@link TaskRunner} hands back to PENDING.
 */
@Injectable()
export class ExecutorService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ExecutorService.name);
  private nodeIdValue: string | null = null;
  private stopping = false;
  private readonly shutdown = new AbortController();
  private loop: Promise<void> | null = null;
  private timers: NodeJS.Timeout[] = [];
  private slotWaiter: (() => void) | null = null;
  private startedAt = 0;
  /** Ids taken from the queue whose run has not ended (claimed or not yet). */
  private inFlight = 0;

  constructor(
    private readonly runner: TaskRunner,
    private readonly handlers: HandlerRegistry,
    private readonly nodes: ExecutorNodeRepository,
    @Inject(COORDINATION) private readonly coordination: CoordinationPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** This node's id (set once bootstrapped). */
  get nodeId(): string {
    if (!this.nodeIdValue) throw new Error('executor not started');
    return this.nodeIdValue;
  }

  async onApplicationBootstrap(): Promise<void> {
    setMaxListeners(0, this.shutdown.signal); // one listener per running attempt, up to EXECUTOR_CONCURRENCY
    this.startedAt = this.clock.now();
    this.nodeIdValue = await this.register();
    await this.beat();
    this.timers.push(setInterval(() => void this.beat(), this.config.heartbeatIntervalMs));
    this.timers.push(setInterval(() => void this.renewLeases(), this.config.leaseRenewMs));
    this.loop = this.claimLoop();
    this.logger.log(`executor ${this.nodeIdValue} up: handlers [${this.handlers.names().join(', ')}], ${this.config.executorConcurrency} workers`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (!this.nodeIdValue || this.stopping) return;
    this.stopping = true;
    this.slotWaiter?.();
    await this.loop;
    const deadline = this.clock.now() + SHUTDOWN_GRACE_MS;
    while (this.inFlight > 0 && this.clock.now() < deadline) await sleep(50);
    this.shutdown.abort();
    while (this.inFlight > 0) await sleep(20);
    for (const t of this.timers) clearInterval(t);
    await this.coordination.removeNode(this.nodeIdValue).catch(() => undefined);
    await this.nodes.markStopped(this.nodeIdValue, this.clock.now()).catch(() => undefined);
    this.logger.log(`executor ${this.nodeIdValue} stopped`);
  }

  private async register(): Promise<string> {
    const host = this.config.nodeName.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 100);
    const day = new Date(this.clock.now()).toISOString().slice(0, 10).replace(/-/g, '');
    const prefix = `${host}-${day}-`;
    for (let seq = (await this.nodes.countWithPrefix(prefix)) + 1; ; seq++) {
      const nodeId = `${prefix}${seq}`;
      const ok = await this.nodes.tryInsert({
        nodeId, host, handlers: this.handlers.names(), capacity: this.config.executorConcurrency, labels: {},
        startedAt: this.startedAt, lastSeenAt: this.startedAt, stoppedAt: null,
      });
      if (ok) return nodeId;
    }
  }

  private advert(): NodeAdvert {
    return {
      handlers: this.handlers.names(), capacity: this.config.executorConcurrency, active: this.runner.running.size,
      labels: {}, host: this.config.nodeName, startedAt: this.startedAt,
    };
  }

  /** Heartbeat, then abort the handlers whose instance was cancelled or taken away (checked every beat). */
  private async beat(): Promise<void> {
    if (this.stopping) return;
    try {
      await this.coordination.heartbeat(this.nodeId, this.advert(), this.clock.now());
      for (const att of await this.runner.revokedAttempts()) att.controller.abort(new Error('REVOKED'));
    } catch (err) {
      this.logger.warn(`heartbeat failed: ${(err as Error).message}`);
    }
  }

  private async claimLoop(): Promise<void> {
    while (!this.stopping) {
      if (this.inFlight >= this.config.executorConcurrency) {
        await new Promise<void>((resolve) => (this.slotWaiter = resolve));
        this.slotWaiter = null;
        continue;
      }
      let id: string | null = null;
      try {
        id = await this.coordination.claim(this.nodeId, CLAIM_WAIT_MS);
      } catch (err) {
        this.logger.warn(`claim failed: ${(err as Error).message}`);
        await sleep(500);
      }
      if (id) this.start(id);
    }
  }

  private start(id: string): void {
    this.inFlight++;
    void this.runner
      .run(id, this.nodeId, this.shutdown.signal)
      .catch((err) => this.logger.error(`instance ${id}: ${(err as Error).message}`))
      .finally(async () => {
        await this.coordination.ack(this.nodeId, id).catch(() => undefined);
        this.inFlight--;
        this.slotWaiter?.();
      });
  }

  private async renewLeases(): Promise<void> {
    const until = this.clock.now() + this.config.leaseMs;
    for (const att of this.runner.running.values()) {
      const ok = await this.runner.renewLease(att, until).catch(() => true);
      if (!ok) att.controller.abort(new Error('LEASE_LOST'));
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
