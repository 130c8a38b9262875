import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, ConflictError, NotFoundError, ValidationError } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import {
  type NodeAdvert,
  NODE_QUEUES,
  NODE_REGISTRY,
  type NodeQueuePort,
  type NodeRegistryPort,
} from '../coordination/index.js';
import { NodeRegistryService, TakeBack } from '../dispatch/index.js';
import type { NodeSettings } from '../handler/index.js';
import { BUILTIN_HANDLERS, type WorkerSeat } from '../execution/index.js';
import { type ExecutorNode, ExecutorNodeRepository, InstanceReads, JobInstanceStatus as S } from '../metadata/index.js';

/** Rows a deregistration takes back at once (the reconciler's page); the reconciler takes any rest. */
const TAKE_BACK_ROWS = 10_000;
/** Live worker nodes one app may have at once (each is a registry entry and an executor_node row). */
export const MAX_WORKER_NODES_PER_APP = 100;
/** Longest wait of one claim, ms (docs/workers.md `maxClaimWaitMs`). */
export const MAX_CLAIM_WAIT_MS = 20_000;
/** A live node's row is read again after this long, ms (docs/workers.md "Routes": a deregistration elsewhere). */
export const SEAT_CACHE_MS = 1_000;
const SEAT_CACHE_MAX = 10_000;

/** What a worker registers (docs/workers.md `POST /api/worker/nodes`), already checked against its bounds. */
export interface WorkerRegistration {
  handlers: string[];
  capacity: number;
  host?: string;
}

/** A worker node as a call finds it: its seat, its row, its capacity. */
export interface WorkerNode extends WorkerSeat {
  row: ExecutorNode;
}

/**
 * App workers' nodes (docs/workers.md): registered by the api on a worker's behalf in the executors' registry (an
 * executor_node row and registry beats), owned by the app (`appId` on the row and the advert, so dispatch routes
 * them only that app's work). A node of another app, stopped, or silent past NODE_OFFLINE_AFTER_MS is not found.
 */
@Injectable()
export class WorkerNodes {
  private readonly seats = new Map<string, { row: ExecutorNode; readAt: number }>();

  constructor(
    @Inject(ExecutorNodeRepository)
    private readonly nodes: Pick<ExecutorNodeRepository, 'tryInsert' | 'find' | 'touch' | 'markStopped'>,
    @Inject(InstanceReads) private readonly reads: Pick<InstanceReads, 'findOnNode' | 'countOnNode'>,
    @Inject(NODE_REGISTRY) private readonly registry: Pick<NodeRegistryPort, 'heartbeat' | 'removeNode'>,
    @Inject(NodeRegistryService) private readonly view: Pick<NodeRegistryService, 'invalidate' | 'liveNodes'>,
    @Inject(NODE_QUEUES) private readonly queues: Pick<NodeQueuePort, 'drainNode'>,
    @Inject(TakeBack) private readonly takeBack: Pick<TakeBack, 'requeue'>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Registers a node for `appId`, id `w-<app>-<12 hex>` (server-made), and beats for it once so work may route to
   * it at once. @throws ValidationError(handlers) naming a built-in in any letter case (trusted executors only),
   * ConflictError when the app has MAX_WORKER_NODES_PER_APP live nodes.
   */
  async register(appId: string, reg: WorkerRegistration): Promise<NodeSettings> {
    const builtins = new Set([...BUILTIN_HANDLERS].map((h) => h.toLowerCase()));
    const builtin = reg.handlers.filter((h) => builtins.has(h.toLowerCase()));
    if (builtin.length > 0)
      throw new ValidationError(
        'handlers',
        `handlers names the built-in ${builtin.map((h) => `'${h}'`).join(', ')}: built-in handlers run only on ` +
          'trusted executors',
      );
    const live = (await this.view.liveNodes()).filter((n) => n.info.appId === appId).length;
    if (live >= MAX_WORKER_NODES_PER_APP)
      throw new ConflictError(
        `app ${appId} has ${live} live worker nodes, the most it may have (${MAX_WORKER_NODES_PER_APP}): ` +
          'deregister one first',
      );
    const handlers = [...new Set(reg.handlers)];
    const host = reg.host ?? '';
    const now = this.clock.now();
    for (;;) {
      const nodeId = `w-${appId}-${randomBytes(6).toString('hex')}`;
      const row = { nodeId, host, handlers, capacity: reg.capacity, labels: {}, appId };
      const ok = await this.nodes.tryInsert({ ...row, startedAt: now, lastSeenAt: now, stoppedAt: null });
      if (!ok) continue;
      await this.registry.heartbeat(nodeId, this.advert({ ...row, startedAt: now }, 0, false), now);
      this.view.invalidate(); // this process routes to it and accepts its handlers at once
      return {
        nodeId,
        heartbeatIntervalMs: this.config.heartbeatIntervalMs,
        leaseMs: this.config.leaseMs,
        leaseRenewMs: this.config.leaseRenewMs,
        nodeTimeoutMs: this.config.nodeOfflineAfterMs,
        maxClaimWaitMs: MAX_CLAIM_WAIT_MS,
      };
    }
  }

  /** A heartbeat (draining: no handler advertised). @throws NotFoundError, ValidationError(active) over capacity. */
  async heartbeat(appId: string, nodeId: string, active: number, draining: boolean): Promise<void> {
    const node = await this.seat(appId, nodeId);
    if (active > node.row.capacity)
      throw new ValidationError('active', `active must be at most the node's capacity (${node.row.capacity})`);
    const now = this.clock.now();
    await this.nodes.touch(nodeId, now);
    await this.registry.heartbeat(nodeId, this.advert(node.row, active, draining), now);
    node.row.lastSeenAt = Math.max(node.row.lastSeenAt, now);
  }

  /**
   * Deregisters: out of the registry, row stopped, and what it still held taken back at once as the reconciler takes
   * back a lost node's (its queue drained, its rows by the policy, NODE_LOST); what fails here the reconciler retries.
   */
  async deregister(appId: string, nodeId: string): Promise<void> {
    await this.seat(appId, nodeId);
    this.seats.delete(nodeId);
    await this.registry.removeNode(nodeId);
    this.view.invalidate();
    await this.nodes.markStopped(nodeId, this.clock.now());
    const pushed = new Set(await this.queues.drainNode(nodeId));
    const rows = await this.reads.findOnNode(nodeId, [S.DISPATCHED, S.RUNNING], TAKE_BACK_ROWS);
    if (rows.length > 0) await this.takeBack.requeue(rows, 'NODE_LOST', pushed);
  }

  /** The live node `nodeId` of `appId` (read ≤ SEAT_CACHE_MS ago). @throws NotFoundError (another app's, gone). */
  async seat(appId: string, nodeId: string): Promise<WorkerNode> {
    const now = this.clock.now();
    const expired = (r: ExecutorNode) => r.lastSeenAt < now - this.config.nodeOfflineAfterMs;
    const known = this.seats.get(nodeId);
    if (known && now - known.readAt < SEAT_CACHE_MS && known.row.appId === appId && !expired(known.row))
      return { appId, nodeId, row: known.row };
    this.seats.delete(nodeId);
    const row = nodeId.length <= 128 ? await this.nodes.find(nodeId) : null;
    if (!row || row.appId !== appId || row.stoppedAt !== null || expired(row))
      throw new NotFoundError('worker node', nodeId);
    if (this.seats.size >= SEAT_CACHE_MAX) this.seats.clear();
    this.seats.set(nodeId, { row, readAt: now });
    return { appId, nodeId, row };
  }

  /** Attempts RUNNING on the node now (an index count). */
  running(node: WorkerNode): Promise<number> {
    return this.reads.countOnNode(node.nodeId, [S.RUNNING]);
  }

  private advert(
    row: Pick<ExecutorNode, 'handlers' | 'capacity' | 'host' | 'startedAt' | 'appId'>,
    active: number,
    draining: boolean,
  ): NodeAdvert {
    return {
      handlers: draining ? [] : row.handlers,
      capacity: row.capacity,
      active,
      labels: draining ? { draining: 'true' } : {},
      host: row.host,
      startedAt: row.startedAt,
      appId: row.appId,
    };
  }
}
