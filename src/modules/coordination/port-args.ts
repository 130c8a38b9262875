import { ValidationError } from '../../common/index.js';
import type { ClaimShare, LiveNode, ReadyItem } from './coordination.port.js';

// Argument checks both adapters apply alike, so they fail the same way on the same input.

/** A TTL as the adapters take it: whole ms, rounded up. @throws ValidationError(`ttlMs`) unless positive, finite. */
export function toTtl(ttlMs: number): number {
  if (!(ttlMs > 0) || !Number.isFinite(ttlMs)) {
    throw new ValidationError('ttlMs', `ttl must be a positive number of ms, got ${ttlMs}`);
  }
  return Math.ceil(ttlMs);
}

/** Members starting with this are reserved in a semaphore (its "known" mark is `~known`). */
const RESERVED = '~';

/** @throws ValidationError(`limit` | `holders`) unless `limit` is a positive integer and no holder starts with `~`. */
export function checkSlotArgs(holders: string[], limit: number): void {
  if (!(Number.isSafeInteger(limit) && limit > 0)) {
    throw new ValidationError('limit', `semaphore limit must be a positive integer, got ${limit}`);
  }
  const bad = holders.find((h) => h.startsWith(RESERVED));
  if (bad !== undefined) {
    throw new ValidationError('holders', `semaphore holder '${bad}' starts with '${RESERVED}', which is reserved`);
  }
}

/** @throws ValidationError(`ratePerSecond` | `burst` | `n`) unless rate > 0, burst an integer >= 1, n in 1..burst. */
export function checkBucketArgs(ratePerSecond: number, burst: number, n: number): void {
  if (!(ratePerSecond > 0) || !Number.isFinite(ratePerSecond)) {
    throw new ValidationError('ratePerSecond', `token rate must be a positive number per second, got ${ratePerSecond}`);
  }
  if (!(Number.isSafeInteger(burst) && burst > 0)) {
    throw new ValidationError('burst', `bucket size must be a positive integer, got ${burst}`);
  }
  if (!(Number.isSafeInteger(n) && n > 0 && n <= burst)) {
    throw new ValidationError('n', `tokens to take must be an integer from 1 to the bucket size ${burst}, got ${n}`);
  }
}

/**
 * A push's items by app, in push order, apps by first appearance.
 * @throws ValidationError(`appId` | `rank`) if an app id is empty or a rank not a finite number.
 */
export function groupReadyByApp(items: ReadyItem[]): Map<string, ReadyItem[]> {
  const byApp = new Map<string, ReadyItem[]>();
  for (const item of items) {
    const { id, appId, rank } = item;
    if (typeof appId !== 'string' || appId.length === 0) {
      throw new ValidationError('appId', `ready item '${id}' has no app id`);
    }
    if (typeof rank !== 'number' || !Number.isFinite(rank)) {
      throw new ValidationError('rank', `ready item '${id}' has no finite rank, got ${rank}`);
    }
    let group = byApp.get(appId);
    if (!group) byApp.set(appId, (group = []));
    group.push(item);
  }
  return byApp;
}

/** @throws ValidationError(`cap`) unless the share's cap is a positive integer. */
export function checkShare(share: ClaimShare | undefined): void {
  if (share && !(Number.isSafeInteger(share.cap) && share.cap > 0)) {
    throw new ValidationError('cap', `claim cap must be a positive integer, got ${share.cap}`);
  }
}

/** @throws ValidationError(`by`) when a counter step is not a safe integer. */
export function checkIncrement(by: number): void {
  if (!Number.isSafeInteger(by)) throw new ValidationError('by', `increment must be an integer, got ${by}`);
}

/** Sorts nodes by id (code unit order, as both registries list them). */
export function sortByNodeId(nodes: LiveNode[]): LiveNode[] {
  return nodes.sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
}
