import type { LiveNode, NodeAdvert } from '../../src/modules/coordination/index.js';

/** A registered executor as the registry returns it: handler `h`, one slot, idle, unless `advert` says otherwise. */
export function liveNode(nodeId: string, lastBeat: number, advert: Partial<NodeAdvert> = {}): LiveNode {
  const info = { handlers: ['h'], capacity: 1, active: 0, labels: {}, host: 'x', startedAt: 0, ...advert };
  return { nodeId, lastBeat, info };
}
