import { Injectable } from '@nestjs/common';
import type { LiveNode } from '../coordination/index.js';
import { ReconcileInstances, type ServedHandlers } from '../metadata/index.js';
import { NodeRegistryService } from './node-registry.service.js';

/** Most groups one {@link UnadvertisedWaits.scan} returns. */
export const UNADVERTISED_SCAN_MAX = 1000;

/** Due PENDING instances of one app whose handler no live node that may take them advertises. */
export interface UnadvertisedWait {
  appId: string;
  handler: string;
  /** How many instances wait. */
  count: number;
  /** When the oldest of them was created, epoch ms UTC. */
  oldestCreatedAt: number;
}

/**
 * The work waiting for a handler nobody serves (docs/dispatch.md "Waiting for a handler"): due PENDING instances
 * whose handler no live trusted executor, nor a live app worker of their app, advertises (routing's rule).
 */
@Injectable()
export class UnadvertisedWaits {
  constructor(
    private readonly registry: NodeRegistryService,
    private readonly instances: ReconcileInstances,
  ) {}

  /**
   * The waits of `namespace` (this process's: its registry says who serves) as of `now` (epoch ms), per (app,
   * handler), oldest first, at most {@link UNADVERTISED_SCAN_MAX}, in one statement. @throws database/Redis errors.
   */
  async scan(namespace: string, now: number): Promise<UnadvertisedWait[]> {
    const served = servedHandlers(await this.registry.liveNodes());
    return this.instances.pendingDueByHandler(namespace, now, served, UNADVERTISED_SCAN_MAX);
  }
}

/** What `nodes` serve: a trusted executor's handlers for every app, an app worker's for its app only. */
function servedHandlers(nodes: LiveNode[]): ServedHandlers {
  const everyApp = new Set<string>();
  const byApp = new Map<string, Set<string>>();
  for (const n of nodes) {
    const appId = n.info.appId ?? null;
    if (appId === null) for (const h of n.info.handlers) everyApp.add(h);
    else {
      const own = byApp.get(appId) ?? new Set<string>();
      for (const h of n.info.handlers) own.add(h);
      byApp.set(appId, own);
    }
  }
  const notEveryApp = (hs: Set<string>) => [...hs].filter((h) => !everyApp.has(h)).sort();
  return {
    everyApp: [...everyApp].sort(),
    byApp: new Map([...byApp].map(([app, hs]) => [app, notEveryApp(hs)] as const).filter(([, hs]) => hs.length > 0)),
  };
}
