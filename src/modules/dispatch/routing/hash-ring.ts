import { hash } from 'node:crypto';
import { ErrorCode, SchedulerError } from '../../../common/index.js';

/** Virtual nodes (ring points) per executor when none is given: about ±8 % spread of load between nodes. */
export const DEFAULT_VIRTUAL_NODES = 160;

/**
 * Position of `key` on the ring: the first 8 bytes of the MD5 digest of its UTF-8 bytes, read as a
 * big-endian unsigned 64-bit integer. MD5 is used as a stable, well-mixed hash, not for security; it is
 * the same in every process and Node version, so every scheduler pod builds the same ring and places a
 * key on the same node.
 */
export function ringPosition(key: string): bigint {
  return hash('md5', key, 'buffer').readBigUInt64BE(0);
}

/**
 * Consistent-hash ring with virtual nodes (DESIGN §6 `CONSISTENT_HASH`).
 *
 * Each node owns `virtualNodes` points at `ringPosition("<nodeId>#<v>")`, v = 0 … virtualNodes − 1. A key
 * belongs to the owner of the first point at or after its own position, wrapping past the top of the
 * 64-bit space to the lowest point. A node's points depend only on its id, so adding a node to N moves
 * about 1/(N+1) of the keys, all of them to the new node, and removing one moves only the keys it owned.
 * Two points at one position (astronomically rare) are ordered by node id, so the ring stays a function
 * of the node set alone, whatever order the ids come in.
 *
 * Immutable: build a new ring when the node set changes ({@link HashRingCache} keeps recent ones).
 * Building costs `nodes × virtualNodes` MD5 digests plus a sort; a lookup is one digest and a binary search.
 */
export class HashRing {
  /** Distinct node ids on the ring, sorted. */
  readonly nodeIds: readonly string[];
  /** Point positions, ascending. */
  private readonly points: BigUint64Array;
  /** `owners[i]` is the node id owning `points[i]`. */
  private readonly owners: string[];

  /**
   * @param nodeIds executor node ids (duplicates are ignored; order does not matter)
   * @param virtualNodes ring points per node, an integer ≥ 1
   * @throws SchedulerError (INTERNAL) when `nodeIds` is empty or `virtualNodes` is not a positive integer
   */
  constructor(
    nodeIds: Iterable<string>,
    readonly virtualNodes = DEFAULT_VIRTUAL_NODES,
  ) {
    this.nodeIds = [...new Set(nodeIds)].sort();
    if (this.nodeIds.length === 0)
      throw new SchedulerError(ErrorCode.INTERNAL, 'a hash ring needs at least one node', 'nodeIds');
    if (!Number.isInteger(virtualNodes) || virtualNodes < 1) {
      throw new SchedulerError(
        ErrorCode.INTERNAL,
        `virtual nodes must be a positive integer, got ${virtualNodes}`,
        'virtualNodes',
      );
    }
    const entries: { pos: bigint; node: string }[] = [];
    for (const node of this.nodeIds) {
      for (let v = 0; v < virtualNodes; v++) entries.push({ pos: ringPosition(`${node}#${v}`), node });
    }
    entries.sort((a, b) => (a.pos < b.pos ? -1 : a.pos > b.pos ? 1 : a.node < b.node ? -1 : a.node > b.node ? 1 : 0));
    this.points = BigUint64Array.from(entries, (e) => e.pos);
    this.owners = entries.map((e) => e.node);
  }

  /** The node id that owns `key` (any string; routing keys and shard keys alike). */
  nodeFor(key: string): string {
    const pos = ringPosition(key);
    let lo = 0;
    let hi = this.points.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.points[mid] < pos) lo = mid + 1;
      else hi = mid;
    }
    return this.owners[lo === this.points.length ? 0 : lo];
  }
}
