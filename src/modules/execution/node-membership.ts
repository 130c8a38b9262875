import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, repeatEvery } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { type NodeAdvert, NODE_REGISTRY, type NodeRegistryPort } from '../coordination/index.js';
import { DbClock, ExecutorNodeRepository } from '../metadata/index.js';
import { HandlerRegistry } from './handler-registry.service.js';

/**
 * This executor's cluster membership (docs/dispatch.md "Node registry"): registers the node (id
 * `<host>-<tag>-<yyyymmdd>-<seq>`, see {@link register}), beats every HEARTBEAT_INTERVAL_MS with its handlers,
 * capacity, load and clock offset against the database, deregisters it. Draining, it advertises no handler: live,
 * but no longer a candidate.
 */
@Injectable()
export class NodeMembership {
  private nodeIdValue: string | null = null;
  private startedAt = 0;
  private stopBeating: (() => void) | null = null;
  private beating: Promise<void> = Promise.resolve();

  constructor(
    private readonly handlers: HandlerRegistry,
    private readonly nodes: ExecutorNodeRepository,
    @Inject(NODE_REGISTRY) private readonly registry: NodeRegistryPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DbClock) private readonly dbClock: Pick<DbClock, 'offsetMs'>,
  ) {}

  /** This node's id; throws before {@link register}. */
  get nodeId(): string {
    if (!this.nodeIdValue) throw new Error('executor not started');
    return this.nodeIdValue;
  }

  get registered(): boolean {
    return this.nodeIdValue !== null;
  }

  /**
   * Inserts the executor_node row under the day's first free sequence; returns the node id. The `tag` (6 random
   * hex digits per start) keeps ids apart where no executor_node table is shared: two standalone nodes, or
   * executors of one host on separate stores, all started the same day, used to get the same `<host>-<day>-1`.
   * Within one store the primary key on node_id still makes the id unique.
   */
  async register(): Promise<string> {
    this.startedAt = this.clock.now();
    const host = this.config.nodeName.replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 100);
    const day = new Date(this.clock.now()).toISOString().slice(0, 10).replace(/-/g, '');
    const prefix = `${host}-${randomBytes(3).toString('hex')}-${day}-`;
    for (let seq = (await this.nodes.countWithPrefix(prefix)) + 1; ; seq++) {
      const nodeId = `${prefix}${seq}`;
      const ok = await this.nodes.tryInsert({
        nodeId,
        host,
        handlers: this.handlers.names(),
        capacity: this.config.executorConcurrency,
        labels: {},
        startedAt: this.startedAt,
        lastSeenAt: this.startedAt,
        stoppedAt: null,
        appId: null,
      });
      if (ok) return (this.nodeIdValue = nodeId);
    }
  }

  /** Records one heartbeat: `active` attempts running, `draining` when shutting down. May throw. */
  heartbeat(active: number, draining: boolean): Promise<void> {
    return this.registry.heartbeat(this.nodeId, this.advert(active, draining), this.clock.now());
  }

  /** Runs `beat` every HEARTBEAT_INTERVAL_MS until {@link stop}; `beat` must not throw. */
  startBeating(beat: () => Promise<void>): void {
    this.stopBeating = repeatEvery(this.clock, this.config.heartbeatIntervalMs, () => (this.beating = beat()));
  }

  /** Stops the periodic beat and waits for the one in progress. */
  async stop(): Promise<void> {
    this.stopBeating?.();
    this.stopBeating = null;
    await this.beating;
  }

  /** Removes the node from the registry and marks its row stopped (best effort). */
  async deregister(): Promise<void> {
    await this.registry.removeNode(this.nodeId).catch(() => undefined);
    await this.nodes.markStopped(this.nodeId, this.clock.now()).catch(() => undefined);
  }

  private advert(active: number, draining: boolean): NodeAdvert {
    return {
      handlers: draining ? [] : this.handlers.names(),
      capacity: this.config.executorConcurrency,
      active,
      labels: draining ? { draining: 'true' } : {},
      host: this.config.nodeName,
      startedAt: this.startedAt,
      appId: null,
      clockOffsetMs: this.dbClock.offsetMs,
    };
  }
}
