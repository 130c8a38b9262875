import { hash } from 'node:crypto';
import { ErrorCode, SchedulerError } from '../../../common/index.js';

/** Virtual nodes (ring points) per executor when none is given: about ±8 % spread of load between nodes. */
export const DEFAULT_VIRTUAL_NODES = 160;

/** First 8 bytes of MD5(UTF-8 `key`), big-endian: stable across processes, so every pod builds the same ring. */
export function ringPosition(key: string): bigint {
  return hash('md5', key, 'buffer').readBigUInt64BE(0);
}

/**
 * Immutable consistent-hash ring (docs/dispatch.md "Hash ring"): a key belongs to the first point at or after
 * it, wrapping. Equal points are ordered by node id, so the ring is a function of the node set alone.
 */
export class HashRing {
  /** Distinct node ids on the ring, sorted. */
  readonly nodeIds: readonly string[];
  /** Point positions, ascending. */
  private readonly points: BigUint64Array;
  /** `owners[i]` is the node id owning `points[i]`. */
  private readonly owners: string[];

  /** @param nodeIds any order, duplicates ignored. @throws SchedulerError (INTERNAL) none, or virtualNodes not ≥ 1 */
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
