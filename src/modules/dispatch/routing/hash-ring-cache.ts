import { LiveNode } from '../../coordination/index.js';
import { DEFAULT_VIRTUAL_NODES, HashRing } from './hash-ring.js';

/** Candidate sets whose rings are kept when none is given (one per handler with a distinct node set). */
export const DEFAULT_MAX_RINGS = 64;

/**
 * Keeps the {@link HashRing} of recently seen candidate sets, so a dispatch pass that routes many
 * batches over the same live nodes builds each ring once. Keyed by the candidates' node ids in the
 * order given (dispatch passes them sorted, so an identical set always hits); least recently used
 * rings are dropped past `maxRings`. Node adverts (capacity, active) play no part in a ring, so a new
 * heartbeat does not invalidate one; a node joining or leaving does.
 *
 * Used by CONSISTENT_HASH (DESIGN §6): a ring is a function of the node set only.
 */
export class HashRingCache {
  private readonly rings = new Map<string, HashRing>();

  /**
   * @param virtualNodes ring points per node (integer ≥ 1)
   * @param maxRings rings kept at most (integer ≥ 1)
   */
  constructor(
    readonly virtualNodes = DEFAULT_VIRTUAL_NODES,
    private readonly maxRings = DEFAULT_MAX_RINGS,
  ) {}

  /**
   * The ring over `candidates`, built on first use.
   * @throws SchedulerError (INTERNAL) when `candidates` is empty
   */
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

  /**
   * Places each key on the ring of `candidates`: `result[i]` is the candidate that owns `keys[i]`.
   * @throws SchedulerError (INTERNAL) when `candidates` is empty
   */
  place(candidates: LiveNode[], keys: string[]): LiveNode[] {
    const ring = this.ringFor(candidates);
    const byId = new Map(candidates.map((c) => [c.nodeId, c]));
    return keys.map((key) => byId.get(ring.nodeFor(key))!);
  }
}
