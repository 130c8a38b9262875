import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../config/index.js';
import { type LiveNode, NODE_REGISTRY, type NodeRegistryPort, REGISTRY_VIEW_MS } from '../coordination/index.js';
import { AppStates } from '../execution/index.js';

/**
 * Reads the executor registry (docs/dispatch.md): a node is live while its last heartbeat is younger than
 * NODE_OFFLINE_AFTER_MS. Reads are cached for REGISTRY_VIEW_MS so a burst of dispatches costs one round trip, and
 * renewed in the background past half of it, so a steady stream of deliveries never waits on one.
 */
@Injectable()
export class NodeRegistryService {
  private cache: { at: number; nodes: LiveNode[] } | null = null;
  /** The read of the registry in flight, which every caller shares. */
  private reading: Promise<LiveNode[]> | null = null;

  constructor(
    @Inject(NODE_REGISTRY) private readonly nodes: NodeRegistryPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(AppStates) private readonly apps: Pick<AppStates, 'disabledAmong' | 'disabledApps'>,
  ) {}

  /** Live nodes, sorted by node id, as read at most REGISTRY_VIEW_MS ago. @throws the registry's read error. */
  liveNodes(): Promise<LiveNode[]> {
    const cache = this.cache;
    const age = this.clock.now() - (cache?.at ?? -Infinity);
    if (!cache || age >= REGISTRY_VIEW_MS) return this.read();
    if (age >= REGISTRY_VIEW_MS / 2) this.read().catch(() => undefined); // a caller past the view reads again
    return Promise.resolve(cache.nodes);
  }

  /** The one read of the registry in flight, started if none; stored unless {@link invalidate} came meanwhile. */
  private read(): Promise<LiveNode[]> {
    if (this.reading) return this.reading;
    const at = this.clock.now();
    const read: Promise<LiveNode[]> = this.nodes
      .liveNodes(at - this.config.nodeOfflineAfterMs)
      .then((nodes) => {
        // never cache "nobody": a node may be just starting
        if (this.reading === read) this.cache = nodes.length > 0 ? { at, nodes } : null;
        return nodes;
      })
      .finally(() => {
        if (this.reading === read) this.reading = null;
      });
    this.reading = read;
    return read;
  }

  /**
   * Live nodes advertising `handler` that may take work of app `appId` (docs/dispatch.md "Routing tenancy"), sorted
   * by node id: trusted executors (no app) and the app workers of that app, never another app's worker.
   */
  async candidates(handler: string, appId: string): Promise<LiveNode[]> {
    return (await this.liveNodes()).filter((n) => n.info.handlers.includes(handler) && mayTake(n, appId));
  }

  /** The apps of `appIds` whose client is disabled: no node takes their work (cached per app, AppStates). */
  heldApps(appIds: Iterable<string>): Promise<Set<string>> {
    return this.apps.disabledAmong(appIds);
  }

  /** Every disabled client's app id, read now (the reconciler's pass leaves their PENDING rows out). */
  disabledApps(): Promise<string[]> {
    return this.apps.disabledApps();
  }

  /** The nodes that beat within two heartbeats (or all): one silent longer may be dead, not yet offline. */
  preferFresh(nodes: LiveNode[]): LiveNode[] {
    const since = this.clock.now() - 2 * this.config.heartbeatIntervalMs;
    const fresh = nodes.filter((n) => n.lastBeat >= since);
    return fresh.length > 0 ? fresh : nodes;
  }

  /** Registered nodes whose heartbeat is older than the offline threshold. */
  staleNodes(): Promise<LiveNode[]> {
    return this.nodes.staleNodes(this.clock.now() - this.config.nodeOfflineAfterMs);
  }

  /** Removes node `nodeId` from the registry (declared offline; the caller invalidates the view). */
  remove(nodeId: string): Promise<void> {
    return this.nodes.removeNode(nodeId);
  }

  /** Forgets the cached view (after a node was declared offline). */
  invalidate(): void {
    this.cache = null;
    this.reading = null;
  }
}

/** Whether node `n` may run instances of app `appId`: a trusted executor (no app) any, an app worker its own app's. */
export function mayTake(n: LiveNode, appId: string): boolean {
  return n.info.appId === undefined || n.info.appId === null || n.info.appId === appId;
}
