import { setMaxListeners } from 'node:events';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { type ClaimedItem, type ClaimShare, COORDINATION, type CoordinationPort, INSTANCE_STOP_CHANNEL, NodeAdvert, REGISTRY_VIEW_MS } from '../coordination/coordination.port.js';
import { ExecutorNodeRepository, JobInstanceRepository, JobInstanceStatus } from '../metadata/index.js';
import { AckBuffer } from './ack-buffer.js';
import { HandlerRegistry } from './handler-registry.service.js';
import { TaskRunner } from './task-runner.service.js';

const CLAIM_WAIT_MS = 1000;
/** Ids in flight (running or finishing) per worker slot, at most. */
const FINISHING_FACTOR = 4;

/**
 * The executor role of one process (DESIGN §6, §7): registers the node (id `<host>-<yyyymmdd>-<seq>`,
 * the sequence made unique by the executor_node table), heartbeats every HEARTBEAT_INTERVAL_MS with its
 * handlers, capacity and load, claims ids from its own reliable queue while a worker slot is free
 * (EXECUTOR_CONCURRENCY; round robin across apps, each holding at most its share, EXECUTOR_APP_SHARE),
 * and renews the leases of what it runs every LEASE_RENEW_MS — a lease it can no longer renew aborts the
 * handler. A handler whose instance was cancelled or taken away is aborted at the
 * next heartbeat, or at once when a canceller's stop signal names it (DESIGN §7).
 *
 * Graceful shutdown (SIGTERM, DESIGN §7): it stops claiming and keeps beating with no handlers advertised
 * (still live, so its running leases are not revoked, but no longer a candidate for new work); the ids
 * routed to it and not started are handed back at once (PENDING, through the leader's delay queue, so
 * another node gets them within a pump); running work gets EXECUTOR_SHUTDOWN_GRACE_MS to finish; what is
 * still running then is aborted and handed back by {@link TaskRunner} (PENDING, without using up an attempt).
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
  /** Ids taken from the queue whose run has not ended (claimed or not yet, or finishing). */
  private inFlight = 0;
  /** Ids taken from the queue whose handler has not ended: the worker slots in use (EXECUTOR_CONCURRENCY). */
  private busy = 0;
  /** Worker slots in use by app (ids of a previous version's queue have no app and count for none). */
  private readonly appSlots = new Map<string, number>();
  /** The app of each id whose handler has not ended, once per copy taken (an id queued twice is taken twice). */
  private readonly slotApps = new Map<string, Array<string | null>>();
  /** Aborted when a worker slot frees: ends a claim that waits only because every app with work holds its share. */
  private slotFreed = new AbortController();
  /** Between the first hand-back on shutdown and the last: each beat hands back what arrived since. */
  private draining = false;
  private handedBack = 0;
  /** The latest periodic heartbeat (shutdown waits for it before the connections close). */
  private beating: Promise<void> = Promise.resolve();
  /** The check for revoked attempts in progress, and whether another was asked for meanwhile. */
  private stopCheck: Promise<void> | null = null;
  private stopCheckAgain = false;
  private unsubscribeStop: (() => Promise<void>) | null = null;

  constructor(
    private readonly runner: TaskRunner,
    private readonly handlers: HandlerRegistry,
    private readonly nodes: ExecutorNodeRepository,
    private readonly instances: JobInstanceRepository,
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
    this.unsubscribeStop = await this.coordination.subscribe(INSTANCE_STOP_CHANNEL, (id) => {
      if (this.runner.runs(id)) void this.stopRevoked().catch((err: Error) => this.logger.warn(`stop check failed (the next heartbeat checks again): ${err.message}`));
    }).catch((err: Error) => {
      this.logger.warn(`stop signals not subscribed (cancels reach running handlers at the next heartbeat): ${err.message}`);
      return null;
    });
    this.timers.push(setInterval(() => (this.beating = this.beat()), this.config.heartbeatIntervalMs));
    this.timers.push(setInterval(() => void this.renewLeases(), this.config.leaseRenewMs));
    this.loop = this.claimLoop();
    this.logger.log(`executor ${this.nodeIdValue} up: handlers [${this.handlers.names().join(', ')}], ${this.config.executorConcurrency} workers`);
  }

  /** Graceful stop: see the class comment. Returns once nothing runs here and the node is deregistered. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.nodeIdValue || this.stopping) return;
    this.stopping = true;
    this.slotWaiter?.();
    await this.beat(); // advertise no handlers at once: dispatchers stop choosing this node
    const drainAdvertised = this.clock.now();
    await this.loop;
    this.handedBack = await this.handBackQueued();
    this.draining = true;
    const running = this.inFlight;
    const deadline = this.clock.now() + this.config.executorShutdownGraceMs;
    while (this.inFlight > 0 && this.clock.now() < deadline) await sleep(50);
    const aborted = this.inFlight;
    this.shutdown.abort();
    while (this.inFlight > 0) await sleep(20);
    this.draining = false;
    for (const t of this.timers) clearInterval(t);
    await this.beating;
    await this.unsubscribeStop?.().catch(() => undefined);
    // A dispatcher's view of the registry may be up to REGISTRY_VIEW_MS old: what it still pushes here after
    // the drain advert lands before this last hand-back, not after it (stranded until the node counts as offline).
    await sleep(Math.max(0, drainAdvertised + 2 * REGISTRY_VIEW_MS - this.clock.now()));
    this.handedBack += await this.handBackQueued(); // routed here while draining (a dispatcher's cached view)
    await this.coordination.removeNode(this.nodeIdValue).catch(() => undefined);
    await this.nodes.markStopped(this.nodeIdValue, this.clock.now()).catch(() => undefined);
    this.logger.log(`executor ${this.nodeIdValue} stopped: ${running - aborted} of ${running} running finished within the grace, ${aborted} handed back aborted, ${this.handedBack} queued handed back`);
  }

  /**
   * Gives back what was routed to this node and has not started: every row still DISPATCHED to it (its
   * ready list, and fires staged for it ahead of their time) goes back to PENDING, same attempt, and into
   * the delay queue at its due time, which the leader's pump dispatches to another node. The lists are
   * emptied too. Each move is conditional, so a row a claim took meanwhile stays with the claim.
   * @returns how many rows went back.
   */
  private async handBackQueued(): Promise<number> {
    const nodeId = this.nodeId;
    try {
      await this.coordination.drainNode(nodeId);
      const rows = await this.instances.findOnNode(nodeId, [JobInstanceStatus.DISPATCHED], 10_000);
      let n = 0;
      for (const row of rows) {
        const now = this.clock.now();
        const won = await this.instances.transition(row.id, JobInstanceStatus.DISPATCHED, JobInstanceStatus.PENDING,
          { attempt: row.attempt, nodeId }, { nodeId: null, dispatchedAt: null }, now);
        if (!won) continue;
        await this.coordination.scheduleDelayed(row.id, Math.max(row.dueAt, now));
        n++;
      }
      if (n > 0) this.runner.wakePump();
      return n;
    } catch (err) {
      // The leader's reconciler takes the rows back once this node is gone: nothing is lost, only later.
      this.logger.warn(`handing back queued work failed: ${(err as Error).message}`);
      return 0;
    }
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

  /** What the heartbeat says; a stopping node advertises no handler (label `draining`), so nothing new is routed to it. */
  private advert(): NodeAdvert {
    return {
      handlers: this.stopping ? [] : this.handlers.names(), capacity: this.config.executorConcurrency, active: this.runner.running.size,
      labels: this.stopping ? { draining: 'true' } : {}, host: this.config.nodeName, startedAt: this.startedAt,
    };
  }

  /**
   * Heartbeat, then abort the handlers whose instance was cancelled or taken away (checked every beat).
   * It goes on while the node drains on shutdown: a silent node would be declared offline and have the
   * leases of the work it is finishing revoked. While draining, each beat also hands back what was routed
   * here meanwhile (a dispatcher's cached view of the registry may still offer this node for a moment).
   */
  private async beat(): Promise<void> {
    try {
      await this.coordination.heartbeat(this.nodeId, this.advert(), this.clock.now());
      await this.stopRevoked();
      await this.acks.retry();
    } catch (err) {
      this.logger.warn(`heartbeat failed: ${(err as Error).message}`);
    }
    if (this.draining) this.handedBack += await this.handBackQueued();
  }

  /**
   * Aborts the handlers whose instance was cancelled or taken away (one database read of the running
   * attempts). Asked while a check runs, it runs once more after it, so no request is answered by a read
   * taken before it.
   */
  private stopRevoked(): Promise<void> {
    if (this.stopCheck) {
      this.stopCheckAgain = true;
      return this.stopCheck;
    }
    const run = async () => {
      do {
        this.stopCheckAgain = false;
        for (const att of await this.runner.revokedAttempts()) att.controller.abort(new Error('REVOKED'));
      } while (this.stopCheckAgain);
    };
    this.stopCheck = run().finally(() => (this.stopCheck = null));
    return this.stopCheck;
  }

  /**
   * Takes ids off this node's queue while worker slots are free: as many at once as slots are free
   * (claimMany, round robin across apps, none past its {@link share}), waiting up to CLAIM_WAIT_MS for the
   * first (a claim held back only by the share ends when a slot frees); the runner claims and starts them
   * together. A slot frees when its handler ends, so the next claim overlaps the finishing writes of the last ones;
   * at most {@link FINISHING_FACTOR} × EXECUTOR_CONCURRENCY ids are in flight in all (a slow database
   * holds back claims instead of piling up finished work).
   */
  private async claimLoop(): Promise<void> {
    while (!this.stopping) {
      const free = Math.min(this.config.executorConcurrency - this.busy, FINISHING_FACTOR * this.config.executorConcurrency - this.inFlight);
      if (free <= 0) {
        await new Promise<void>((resolve) => (this.slotWaiter = resolve));
        this.slotWaiter = null;
        continue;
      }
      let items: ClaimedItem[] = [];
      try {
        if (this.slotFreed.signal.aborted) this.slotFreed = new AbortController();
        items = await this.coordination.claimMany(this.nodeId, free, CLAIM_WAIT_MS, this.share());
      } catch (err) {
        this.logger.warn(`claim failed: ${(err as Error).message}`);
        await sleep(500);
      }
      if (items.length > 0) this.start(items);
    }
  }

  /**
   * The per-app bound of a claim (EXECUTOR_APP_SHARE, README "Fair sharing"): an app may hold at most
   * max(1, ⌊EXECUTOR_CONCURRENCY × share⌋) worker slots here, so the rest stay free for other apps' work
   * (a running handler is never preempted: without that room, another app's task waits for a slow one to end).
   */
  private share(): ClaimShare {
    const cap = Math.max(1, Math.floor(this.config.executorConcurrency * this.config.executorAppShare));
    return { cap, held: this.appSlots, freed: this.slotFreed.signal };
  }

  private start(items: ClaimedItem[]): void {
    this.inFlight += items.length;
    this.busy += items.length;
    for (const { id, appId } of items) {
      this.slotApps.set(id, [...(this.slotApps.get(id) ?? []), appId]);
      if (appId !== null) this.appSlots.set(appId, (this.appSlots.get(appId) ?? 0) + 1);
    }
    void this.runner.runMany(items.map((i) => i.id), this.nodeId, this.shutdown.signal, {
      handlerDone: (id) => {
        this.busy--;
        this.freeAppSlot(id);
        this.slotWaiter?.();
        this.slotFreed.abort();
      },
      ended: (id) => {
        void this.acks.submit(id).finally(() => {
          this.inFlight--;
          this.slotWaiter?.();
        });
      },
    });
  }

  /** Gives back the app slot of one copy of `id` whose handler ended. */
  private freeAppSlot(id: string): void {
    const apps = this.slotApps.get(id);
    const appId = apps?.shift();
    if (apps?.length === 0) this.slotApps.delete(id);
    if (appId === undefined || appId === null) return;
    const n = (this.appSlots.get(appId) ?? 1) - 1;
    if (n > 0) this.appSlots.set(appId, n);
    else this.appSlots.delete(appId);
  }

  /** Acks in groups: ids whose run ended while an ack was in flight leave the processing list together; failed ones are sent again. */
  private readonly acks = new AckBuffer((ids) => this.coordination.ackMany(this.nodeId, ids), (m) => this.logger.warn(m));

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
