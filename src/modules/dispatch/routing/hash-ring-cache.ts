import { LiveNode } from '../../coordination/index.js';
import { DEFAULT_VIRTUAL_NODES, HashRing } from './hash-ring.js';

/** Candidate sets whose rings are kept when none is given (one per handler with a distinct node set). */
export const DEFAULT_MAX_RINGS = 64;

/**
 * LRU of {@link HashRing}s keyed by the node ids in the order given (sorted by dispatch, so a set always hits).
 * A ring depends on the node set only: a heartbeat never invalidates one.
 */
export class HashRingCache {
  private readonly rings = new Map<string, HashRing>();

  /** Ring points per node and rings kept at most, integers ≥ 1. */
  constructor(
    readonly virtualNodes = DEFAULT_VIRTUAL_NODES,
    private readonly maxRings = DEFAULT_MAX_RINGS,
  ) {}

  /** The ring over `candidates`, built on first use. @throws SchedulerError (INTERNAL) when empty */
  ringFor(candidates: LiveNode[]): HashRing {
    const key = candidates.map((c) => c.nodeId).join('\n');
    let ring = this.rings.get(key);
    if (ring) {
      this.rings.delete(key);
    } else {
      ring = new HashRing(
        candidates.map((c) => c.nodeId),
        this.virtualNodes,
      );
      if (this.rings.size >= this.maxRings) this.rings.delete(this.rings.keys().next().value!);
    }
    this.rings.set(key, ring);
    return ring;
  }

  /** `result[i]` is the candidate owning `keys[i]`. @throws SchedulerError (INTERNAL) when `candidates` is empty */
  place(candidates: LiveNode[], keys: string[]): LiveNode[] {
    const ring = this.ringFor(candidates);
    const byId = new Map(candidates.map((c) => [c.nodeId, c]));
    return keys.map((key) => byId.get(ring.nodeFor(key))!);
  }
}
