import { claimWithWait, type ClaimTry, untilFirst } from '../claim-wait.js';
import type { ClaimedItem, ClaimShare, NodeQueuePort, QueueDepth, ReadyItem } from '../coordination.port.js';
import { groupReadyByApp } from '../port-args.js';
import { listOf, setOf } from './maps.js';

/** One node's ready queue: per app its items by (rank, id), and the rotation of the apps whose list is non-empty. */
interface NodeQueue {
  byApp: Map<string, AppQueue>;
  rotation: string[];
}

type Ranked = Pick<ReadyItem, 'id' | 'rank'>;

/** One app's ids in (rank, id) order, as a Redis sorted set orders its members, and each queued id's rank. */
interface AppQueue {
  items: Ranked[];
  ranks: Map<string, number>;
}

/** {@link NodeQueuePort} in memory: a claim waits with real timers and is woken by `pushReady` (no polling). */
export class MemoryNodeQueue implements NodeQueuePort {
  private readonly ready = new Map<string, NodeQueue>();
  private readonly processing = new Map<string, string[]>();
  /** Per node, the wake-ups of the claims waiting on it (in the order they began waiting). */
  private readonly waiters = new Map<string, Set<() => void>>();
  private closed = false;

  /** Wakes every claim waiting on the node; they try again in the order they began waiting. */
  async pushReady(nodeId: string, items: ReadyItem[]): Promise<void> {
    if (items.length === 0) return;
    const byApp = groupReadyByApp(items);
    let queue = this.ready.get(nodeId);
    if (!queue) this.ready.set(nodeId, (queue = { byApp: new Map(), rotation: [] }));
    for (const [appId, group] of byApp) {
      let list = queue.byApp.get(appId);
      if (!list) {
        queue.byApp.set(appId, (list = { items: [], ranks: new Map() }));
        queue.rotation.push(appId);
      }
      for (const { id, rank } of group) insertRanked(list, { id, rank });
    }
    for (const wake of [...(this.waiters.get(nodeId) ?? [])]) wake();
  }

  async claim(nodeId: string, timeoutMs: number): Promise<string | null> {
    return (await this.claimMany(nodeId, 1, timeoutMs))[0]?.id ?? null;
  }

  /** `timeoutMs <= 0` does not wait. */
  claimMany(nodeId: string, max: number, timeoutMs: number, share?: ClaimShare): Promise<ClaimedItem[]> {
    const steps = {
      tryOnce: async (n: number) => this.take(nodeId, n, share),
      waitPush: (ms: number, freed?: AbortSignal) => this.waitPush(nodeId, ms, freed),
      closed: () => this.closed,
    };
    return claimWithWait(steps, max, timeoutMs, share);
  }

  async ack(nodeId: string, id: string): Promise<void> {
    const list = this.processing.get(nodeId);
    const index = list ? list.indexOf(id) : -1;
    if (index < 0) return;
    list!.splice(index, 1);
    if (list!.length === 0) this.processing.delete(nodeId);
  }

  async ackMany(nodeId: string, ids: string[]): Promise<void> {
    for (const id of ids) await this.ack(nodeId, id);
  }

  async drainNode(nodeId: string): Promise<string[]> {
    const ids = [...(this.processing.get(nodeId) ?? []), ...this.readyIds(nodeId)];
    this.processing.delete(nodeId);
    this.ready.delete(nodeId);
    return ids;
  }

  async queueDepth(nodeId: string): Promise<QueueDepth> {
    return { ready: this.readyIds(nodeId).length, processing: this.processing.get(nodeId)?.length ?? 0 };
  }

  async queueDepths(nodeIds: string[]): Promise<QueueDepth[]> {
    return Promise.all(nodeIds.map((nodeId) => this.queueDepth(nodeId)));
  }

  async queuedIds(nodeId: string): Promise<Set<string>> {
    return new Set([...this.readyIds(nodeId), ...(this.processing.get(nodeId) ?? [])]);
  }

  /** Resolves pending claims with []. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    for (const wakers of [...this.waiters.values()]) for (const wake of [...wakers]) wake();
    this.waiters.clear();
  }

  /** One try of a claim, as `lua/claimMany-4.lua` does it: each turn moves an app to the tail, takes its lowest. */
  private take(nodeId: string, max: number, share: ClaimShare | undefined): ClaimTry {
    const queue = this.ready.get(nodeId);
    const out: ClaimTry = { items: [], capped: false };
    if (!queue || this.closed) return out;
    const held = new Map(share?.held ?? []);
    const processing = listOf(this.processing, nodeId);
    for (let passed = 0; out.items.length < max && queue.rotation.length > 0 && passed < queue.rotation.length;) {
      const appId = queue.rotation.shift()!;
      queue.rotation.push(appId);
      const n = held.get(appId) ?? 0;
      if (share && n >= share.cap) {
        out.capped = true;
        passed++;
        continue;
      }
      const list = queue.byApp.get(appId)!;
      const { id } = list.items.shift()!;
      list.ranks.delete(id);
      processing.push(id);
      out.items.push({ id, appId });
      held.set(appId, n + 1);
      passed = 0;
      if (list.items.length > 0) continue;
      queue.byApp.delete(appId);
      queue.rotation.pop();
    }
    if (queue.rotation.length === 0) this.ready.delete(nodeId);
    if (processing.length === 0) this.processing.delete(nodeId);
    return out;
  }

  /** Resolves on the next push to the node, after `ms`, or when `freed` aborts. */
  private waitPush(nodeId: string, ms: number, freed?: AbortSignal): Promise<void> {
    let pushed!: () => void;
    const push = new Promise<void>((resolve) => (pushed = resolve));
    const wakers = setOf(this.waiters, nodeId);
    wakers.add(pushed);
    return untilFirst(push, ms, freed).finally(() => {
      wakers.delete(pushed);
      if (wakers.size === 0 && this.waiters.get(nodeId) === wakers) this.waiters.delete(nodeId);
    });
  }

  /** The ids ready for the node: each app's list in rotation order, lowest rank first. */
  private readyIds(nodeId: string): string[] {
    const queue = this.ready.get(nodeId);
    return queue ? queue.rotation.flatMap((appId) => (queue.byApp.get(appId)?.items ?? []).map((r) => r.id)) : [];
  }
}

/** Puts `item` in its app's (rank, id) order; an id already queued moves. Appends in O(1) when it ranks last. */
function insertRanked(list: AppQueue, item: Ranked): void {
  const old = list.ranks.get(item.id);
  if (old !== undefined) list.items.splice(place(list.items, { id: item.id, rank: old }), 1);
  list.ranks.set(item.id, item.rank);
  const last = list.items[list.items.length - 1];
  if (!last || before(last, item)) list.items.push(item);
  else list.items.splice(place(list.items, item), 0, item);
}

/** The index of the first entry of `items` not before `item` (binary search). */
function place(items: Ranked[], item: Ranked): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (before(items[mid], item)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function before(a: Ranked, b: Ranked): boolean {
  return a.rank < b.rank || (a.rank === b.rank && a.id < b.id);
}
