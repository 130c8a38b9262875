import type { LiveNode, NodeAdvert, NodeRegistryPort } from '../coordination.port.js';
import { sortByNodeId } from '../port-args.js';
import { RedisPart } from './redis-part.js';

/** {@link NodeRegistryPort} on Redis: a sorted set of last beats and a hash of advert JSON, kept together in Lua. */
export class RedisNodeRegistry extends RedisPart implements NodeRegistryPort {
  async heartbeat(nodeId: string, info: NodeAdvert, nowMs: number): Promise<void> {
    await this.run('heartbeat', this.nodeKeys(), [nodeId, nowMs, JSON.stringify(info)]);
  }

  liveNodes(sinceMs: number): Promise<LiveNode[]> {
    return this.list(String(sinceMs), '+inf');
  }

  staleNodes(sinceMs: number): Promise<LiveNode[]> {
    return this.list('-inf', `(${sinceMs}`);
  }

  async removeNode(nodeId: string): Promise<void> {
    await this.run('removeNode', this.nodeKeys(), [nodeId]);
  }

  private nodeKeys(): string[] {
    return [this.keys.nodes(), this.keys.nodeInfo()];
  }

  private async list(min: string, max: string): Promise<LiveNode[]> {
    const rows = (await this.run('listNodes', this.nodeKeys(), [min, max])) as (string | null)[];
    const nodes: LiveNode[] = [];
    for (let i = 0; i < rows.length; i += 3) {
      const json = rows[i + 2];
      if (json === null) continue; // registry and advert hash disagree only if edited by hand
      nodes.push({ nodeId: rows[i] as string, lastBeat: Number(rows[i + 1]), info: JSON.parse(json) as NodeAdvert });
    }
    return sortByNodeId(nodes);
  }
}
