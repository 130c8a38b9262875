import type { LiveNode, NodeAdvert, NodeRegistryPort } from '../coordination.port.js';
import { sortByNodeId } from '../port-args.js';

/** {@link NodeRegistryPort} in memory; adverts are kept as JSON, exactly as Redis keeps them. */
export class MemoryNodeRegistry implements NodeRegistryPort {
  private readonly nodes = new Map<string, { lastBeat: number; json: string }>();

  async heartbeat(nodeId: string, info: NodeAdvert, nowMs: number): Promise<void> {
    this.nodes.set(nodeId, { lastBeat: nowMs, json: JSON.stringify(info) });
  }

  async liveNodes(sinceMs: number): Promise<LiveNode[]> {
    return this.list((lastBeat) => lastBeat >= sinceMs);
  }

  async staleNodes(sinceMs: number): Promise<LiveNode[]> {
    return this.list((lastBeat) => lastBeat < sinceMs);
  }

  async removeNode(nodeId: string): Promise<void> {
    this.nodes.delete(nodeId);
  }

  private list(keep: (lastBeat: number) => boolean): LiveNode[] {
    const nodes: LiveNode[] = [];
    for (const [nodeId, { lastBeat, json }] of this.nodes) {
      if (keep(lastBeat)) nodes.push({ nodeId, lastBeat, info: JSON.parse(json) as NodeAdvert });
    }
    return sortByNodeId(nodes);
  }
}
