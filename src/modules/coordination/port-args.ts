import { ValidationError } from '../../common/index.js';
import type { ClaimShare, LiveNode, ReadyItem } from './coordination.port.js';

// Argument checks both adapters apply alike, so they fail the same way on the same input.

/**
 * A TTL as the adapters accept it: a positive whole number of ms (rounded up).
 * @throws ValidationError(`ttlMs`) when it is not positive and finite.
 */
export function toTtl(ttlMs: number): number {
  if (!(ttlMs > 0) || !Number.isFinite(ttlMs)) {
    throw new ValidationError('ttlMs', `ttl must be a positive number of ms, got ${ttlMs}`);
  }
  return Math.ceil(ttlMs);
}

/** Members starting with this are reserved in a semaphore (its "known" mark is `~known`). */
const RESERVED = '~';

/**
 * Checks a semaphore call: `limit` a positive integer, no holder starting with `~`.
 * @throws ValidationError(`limit` | `holders`).
 */
export function checkSlotArgs(holders: string[], limit: number): void {
  if (!(Number.isSafeInteger(limit) && limit > 0)) {
    throw new ValidationError('limit', `semaphore limit must be a positive integer, got ${limit}`);
  }
  const bad = holders.find((h) => h.startsWith(RESERVED));
  if (bad !== undefined) {
    throw new ValidationError('holders', `semaphore holder '${bad}' starts with '${RESERVED}', which is reserved`);
  }
}

/**
 * Checks a token-bucket call: `ratePerSecond` positive and finite, `burst` a positive integer, `n` an
 * integer from 1 to `burst` (more could never be taken).
 * @throws ValidationError(`ratePerSecond` | `burst` | `n`).
 */
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
 * The items of a push grouped by app, each group in queue order, apps in order of first appearance.
 * @throws ValidationError(`appId`) when an item's app id is empty (an app's ids need a list of their own).
 */
export function groupReadyByApp(items: ReadyItem[]): Map<string, string[]> {
  const byApp = new Map<string, string[]>();
  for (const { id, appId } of items) {
    if (typeof appId !== 'string' || appId.length === 0) {
      throw new ValidationError('appId', `ready item '${id}' has no app id`);
    }
    let ids = byApp.get(appId);
    if (!ids) byApp.set(appId, (ids = []));
    ids.push(id);
  }
  return byApp;
}

/**
 * Checks a claim's share: `cap` a positive integer.
 * @throws ValidationError(`cap`).
 */
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
