import { ValidationError, type Clock } from '../../../common/index.js';
import { claimWithWait, type ClaimTry, untilFirst } from '../claim-wait.js';
import { checkBucketArgs, checkShare, checkSlotArgs, groupReadyByApp, toTtl } from '../port-args.js';
import type { ClaimedItem, ClaimShare, CoordinationPort, LiveNode, NodeAdvert, ReadyItem, TokenTake } from '../coordination.port.js';

/** A semaphore known from a seed: holder → expiry (epoch ms), and until when the semaphore itself lives. */
interface Semaphore {
  held: Map<string, number>;
  until: number;
}

interface HeldLock {
  owner: string;
  /** Epoch ms at which the lock is gone. */
  expiresAt: number;
}

/** One node's ready queue: a FIFO per app, and the rotation of the apps whose list is non-empty (turn order). */
interface NodeQueue {
  byApp: Map<string, string[]>;
  rotation: string[];
}

interface DelayedEntry {
  id: string;
  dueAt: number;
}

/** Nonce (and bucket) map size below which expired entries are not swept. */
const MIN_NONCE_SWEEP = 1024;

/** A token bucket: tokens left (fractional) when last counted, and when it is full again (epoch ms). */
interface Bucket {
  tokens: number;
  at: number;
  fullAt: number;
}

/**
 * {@link CoordinationPort} held in this process's memory: the standalone deployment shape (DESIGN §1),
 * where one process has every role. Production code, not a test fake; it behaves as the Redis adapter does
 * (one contract suite covers both) but nothing is shared with other processes and nothing survives a restart.
 *
 * Lock and nonce TTLs are measured with the injected {@link Clock}; a claim waits with real timers and is
 * woken by `pushReady` (no polling). Each instance is its own namespace.
 */
export class InProcessCoordinationAdapter implements CoordinationPort {
  private readonly locks = new Map<string, HeldLock>();
  private readonly ready = new Map<string, NodeQueue>();
  private readonly processing = new Map<string, string[]>();
  /** Per node, the wake-ups of the claims waiting on it (in the order they began waiting). */
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly listeners = new Map<string, Array<(message: string) => void>>();
  /** Delay queue sorted by (due time, id), as a Redis sorted set orders it; `delayedIndex` maps id → due time. */
  private readonly delayedOrder: DelayedEntry[] = [];
  private readonly delayedIndex = new Map<string, number>();
  private readonly nodes = new Map<string, { lastBeat: number; json: string }>();
  private readonly counters = new Map<string, number>();
  /** Semaphore name -> holder -> expiry (epoch ms). */
  private readonly semaphores = new Map<string, Semaphore>();
  /** Nonce key → expiry (epoch ms); expired ones are swept when the map has doubled since the last sweep. */
  private readonly nonces = new Map<string, number>();
  private nextNonceSweep = MIN_NONCE_SWEEP;
  /** Token buckets by key; one that would be full again is the same as none, and is swept as the nonces are. */
  private readonly buckets = new Map<string, Bucket>();
  private nextBucketSweep = MIN_NONCE_SWEEP;
  private closed = false;

  /** @param clock source of "now" for lock and nonce expiry (epoch ms). */
  constructor(private readonly clock: Clock) {}

  /** {@inheritDoc CoordinationPort.tryAcquireLock} */
  async tryAcquireLock(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const ttl = toTtl(ttlMs);
    const held = this.heldLock(name);
    if (held && held.owner !== owner) return false;
    this.locks.set(name, { owner, expiresAt: this.clock.now() + ttl });
    return true;
  }

  /** {@inheritDoc CoordinationPort.renewLock} */
  async renewLock(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const ttl = toTtl(ttlMs);
    const held = this.heldLock(name);
    if (held?.owner !== owner) return false;
    held.expiresAt = this.clock.now() + ttl;
    return true;
  }

  /** {@inheritDoc CoordinationPort.releaseLock} */
  async releaseLock(name: string, owner: string): Promise<boolean> {
    if (this.heldLock(name)?.owner !== owner) return false;
    this.locks.delete(name);
    return true;
  }

  /** {@inheritDoc CoordinationPort.lockOwner} */
  async lockOwner(name: string): Promise<string | null> {
    return this.heldLock(name)?.owner ?? null;
  }

  /** {@inheritDoc CoordinationPort.pushReady} Wakes every claim waiting on the node; they try again in the order they began waiting. */
  async pushReady(nodeId: string, items: ReadyItem[]): Promise<void> {
    if (items.length === 0) return;
    const byApp = groupReadyByApp(items);
    let queue = this.ready.get(nodeId);
    if (!queue) this.ready.set(nodeId, (queue = { byApp: new Map(), rotation: [] }));
    for (const [appId, ids] of byApp) {
      const list = queue.byApp.get(appId);
      if (list) list.push(...ids);
      else {
        queue.byApp.set(appId, [...ids]);
        queue.rotation.push(appId);
      }
    }
    for (const wake of [...(this.waiters.get(nodeId) ?? [])]) wake();
  }

  /** {@inheritDoc CoordinationPort.claim} */
  async claim(nodeId: string, timeoutMs: number): Promise<string | null> {
    return (await this.claimMany(nodeId, 1, timeoutMs))[0]?.id ?? null;
  }

  /**
   * {@inheritDoc CoordinationPort.claimMany}
   * `timeoutMs <= 0` does not wait. Pending claims resolve [] when the adapter is closed.
   */
  async claimMany(nodeId: string, max: number, timeoutMs: number, share?: ClaimShare): Promise<ClaimedItem[]> {
    checkShare(share);
    if (this.closed || !(max >= 1)) return [];
    const n = Math.floor(max);
    return claimWithWait(async () => this.take(nodeId, n, share), (ms, freed) => this.waitPush(nodeId, ms, freed), timeoutMs, share, () => this.closed);
  }

  /**
   * One try of a claim (the steps of `lua/claimMany-4.lua`): apps take turns from the head of the rotation,
   * each turn moving the app to the tail and taking its oldest id unless it holds `share.cap` ids already.
   */
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
      const id = list.shift()!;
      processing.push(id);
      out.items.push({ id, appId });
      held.set(appId, n + 1);
      passed = 0;
      if (list.length > 0) continue;
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

  /** {@inheritDoc CoordinationPort.ack} */
  async ack(nodeId: string, id: string): Promise<void> {
    const list = this.processing.get(nodeId);
    const index = list ? list.indexOf(id) : -1;
    if (index < 0) return;
    list!.splice(index, 1);
    if (list!.length === 0) this.processing.delete(nodeId);
  }

  /** {@inheritDoc CoordinationPort.ackMany} */
  async ackMany(nodeId: string, ids: string[]): Promise<void> {
    for (const id of ids) await this.ack(nodeId, id);
  }

  /** {@inheritDoc CoordinationPort.drainNode} */
  async drainNode(nodeId: string): Promise<string[]> {
    const ids = [...(this.processing.get(nodeId) ?? []), ...this.readyIds(nodeId)];
    this.processing.delete(nodeId);
    this.ready.delete(nodeId);
    return ids;
  }

  /** {@inheritDoc CoordinationPort.queueDepth} */
  async queueDepth(nodeId: string): Promise<{ ready: number; processing: number }> {
    return { ready: this.readyIds(nodeId).length, processing: this.processing.get(nodeId)?.length ?? 0 };
  }

  /** {@inheritDoc CoordinationPort.queueDepths} */
  async queueDepths(nodeIds: string[]): Promise<Array<{ ready: number; processing: number }>> {
    return Promise.all(nodeIds.map((nodeId) => this.queueDepth(nodeId)));
  }

  /** {@inheritDoc CoordinationPort.queuedIds} */
  async queuedIds(nodeId: string): Promise<Set<string>> {
    return new Set([...this.readyIds(nodeId), ...(this.processing.get(nodeId) ?? [])]);
  }

  /** The ids ready for the node: each app's list in rotation order, oldest first. */
  private readyIds(nodeId: string): string[] {
    const queue = this.ready.get(nodeId);
    return queue ? queue.rotation.flatMap((appId) => queue.byApp.get(appId) ?? []) : [];
  }

  /** {@inheritDoc CoordinationPort.scheduleDelayed} */
  async scheduleDelayed(id: string, dueAtMs: number): Promise<void> {
    const previous = this.delayedIndex.get(id);
    if (previous !== undefined) this.delayedOrder.splice(this.delayedPosition({ id, dueAt: previous }), 1);
    const entry = { id, dueAt: dueAtMs };
    this.delayedOrder.splice(this.delayedPosition(entry), 0, entry);
    this.delayedIndex.set(id, dueAtMs);
  }

  /** {@inheritDoc CoordinationPort.takeDue} */
  async takeDue(nowMs: number, limit: number): Promise<string[]> {
    let count = 0;
    while (count < this.delayedOrder.length && count + 1 <= limit && this.delayedOrder[count].dueAt <= nowMs) count++;
    const taken = this.delayedOrder.splice(0, count).map((entry) => entry.id);
    for (const id of taken) this.delayedIndex.delete(id);
    return taken;
  }

  /** {@inheritDoc CoordinationPort.delayedDueAt} */
  async delayedDueAt(id: string): Promise<number | null> {
    return this.delayedIndex.get(id) ?? null;
  }

  /** {@inheritDoc CoordinationPort.heartbeat} The advert is stored as JSON, exactly as Redis keeps it. */
  async heartbeat(nodeId: string, info: NodeAdvert, nowMs: number): Promise<void> {
    this.nodes.set(nodeId, { lastBeat: nowMs, json: JSON.stringify(info) });
  }

  /** {@inheritDoc CoordinationPort.liveNodes} */
  async liveNodes(sinceMs: number): Promise<LiveNode[]> {
    return this.listNodes((lastBeat) => lastBeat >= sinceMs);
  }

  /** {@inheritDoc CoordinationPort.staleNodes} */
  async staleNodes(sinceMs: number): Promise<LiveNode[]> {
    return this.listNodes((lastBeat) => lastBeat < sinceMs);
  }

  /** {@inheritDoc CoordinationPort.removeNode} */
  async removeNode(nodeId: string): Promise<void> {
    this.nodes.delete(nodeId);
  }

  /** {@inheritDoc CoordinationPort.acquireSlots} */
  async acquireSlots(name: string, holders: string[], limit: number, ttlMs: number, nowMs: number): Promise<string[] | null> {
    checkSlotArgs(holders, limit);
    if (holders.length === 0) return [];
    const sem = this.knownSemaphore(name, nowMs);
    if (!sem) return null;
    const admitted = holders.filter((h) => {
      if (!sem.held.has(h) && sem.held.size >= limit) return false;
      sem.held.set(h, nowMs + toTtl(ttlMs));
      return true;
    });
    sem.until = Math.max(sem.until, nowMs + toTtl(ttlMs));
    return admitted;
  }

  /** {@inheritDoc CoordinationPort.seedSlots} */
  async seedSlots(name: string, holders: string[], ttlMs: number, nowMs: number): Promise<void> {
    checkSlotArgs(holders, 1);
    const expireAt = nowMs + toTtl(ttlMs);
    const sem = this.knownSemaphore(name, nowMs) ?? { held: new Map<string, number>(), until: 0 };
    for (const h of holders) sem.held.set(h, Math.max(sem.held.get(h) ?? 0, expireAt));
    sem.until = Math.max(sem.until, expireAt);
    this.semaphores.set(name, sem);
  }

  /** {@inheritDoc CoordinationPort.releaseSlot} */
  async releaseSlot(name: string, holder: string): Promise<void> {
    this.semaphores.get(name)?.held.delete(holder);
  }

  /**
   * Semaphore `name` with its expired holders dropped, or null when it is not known (never seeded, or past
   * its `until`, as the Redis key expires: every call sets it to at least its holders' expiry and now + ttl).
   */
  private knownSemaphore(name: string, nowMs: number): Semaphore | null {
    const sem = this.semaphores.get(name);
    if (!sem) return null;
    for (const [holder, expiry] of sem.held) if (expiry <= nowMs) sem.held.delete(holder);
    if (sem.until <= nowMs) {
      this.semaphores.delete(name);
      return null;
    }
    return sem;
  }

  /** {@inheritDoc CoordinationPort.increment} */
  async increment(name: string, by = 1): Promise<number> {
    if (!Number.isSafeInteger(by)) throw new ValidationError('by', `increment must be an integer, got ${by}`);
    const value = (this.counters.get(name) ?? 0) + by;
    this.counters.set(name, value);
    return value;
  }

  /** {@inheritDoc CoordinationPort.acceptNonce} */
  async acceptNonce(appId: string, nonce: string, ttlMs: number): Promise<boolean> {
    const ttl = toTtl(ttlMs);
    const now = this.clock.now();
    const key = `${appId.length}:${appId}:${nonce}`;
    const expiresAt = this.nonces.get(key);
    if (expiresAt !== undefined && expiresAt > now) return false;
    this.nonces.set(key, now + ttl);
    if (this.nonces.size >= this.nextNonceSweep) {
      for (const [k, until] of this.nonces) if (until <= now) this.nonces.delete(k);
      this.nextNonceSweep = Math.max(MIN_NONCE_SWEEP, this.nonces.size * 2);
    }
    return true;
  }

  /** {@inheritDoc CoordinationPort.takeTokens} Timed by the adapter's Clock; the same arithmetic as `takeTokens-1.lua`. */
  async takeTokens(key: string, ratePerSecond: number, burst: number, n: number): Promise<TokenTake> {
    checkBucketArgs(ratePerSecond, burst, n);
    const now = this.clock.now();
    const held = this.buckets.get(key);
    let tokens = held ? Math.min(burst, held.tokens + (Math.max(0, now - held.at) * ratePerSecond) / 1000) : burst;
    const allowed = tokens >= n;
    const retryAfterMs = allowed ? 0 : Math.ceil(((n - tokens) * 1000) / ratePerSecond);
    if (allowed) tokens -= n;
    const fullInMs = Math.ceil(((burst - tokens) * 1000) / ratePerSecond);
    this.buckets.set(key, { tokens, at: now, fullAt: now + fullInMs });
    if (this.buckets.size >= this.nextBucketSweep) {
      for (const [k, b] of this.buckets) if (b.fullAt <= now) this.buckets.delete(k);
      this.nextBucketSweep = Math.max(MIN_NONCE_SWEEP, this.buckets.size * 2);
    }
    return { allowed, remaining: Math.floor(tokens), retryAfterMs, fullInMs };
  }

  /** {@inheritDoc CoordinationPort.publish} Listeners run on a later microtask, as a network hop would. */
  async publish(name: string, message: string): Promise<void> {
    for (const listener of [...(this.listeners.get(name) ?? [])]) queueMicrotask(() => listener(message));
  }

  /** {@inheritDoc CoordinationPort.subscribe} */
  async subscribe(name: string, listener: (message: string) => void): Promise<() => Promise<void>> {
    listOf(this.listeners, name).push(listener);
    return async () => {
      const list = this.listeners.get(name);
      const index = list ? list.indexOf(listener) : -1;
      if (index >= 0) list!.splice(index, 1);
      if (list?.length === 0) this.listeners.delete(name);
    };
  }

  /** Resolves pending claims with [] (null for `claim`); drops subscriptions. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    for (const wakers of [...this.waiters.values()]) for (const wake of [...wakers]) wake();
    this.waiters.clear();
  }

  /** The live holder of `name`; an expired lock is forgotten. */
  private heldLock(name: string): HeldLock | undefined {
    const held = this.locks.get(name);
    if (held && held.expiresAt <= this.clock.now()) {
      this.locks.delete(name);
      return undefined;
    }
    return held;
  }

  /** Index of the first delay-queue entry not ordered before `entry` (binary search). */
  private delayedPosition(entry: DelayedEntry): number {
    let low = 0;
    let high = this.delayedOrder.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const other = this.delayedOrder[mid];
      const before = other.dueAt < entry.dueAt || (other.dueAt === entry.dueAt && other.id < entry.id);
      if (before) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private listNodes(keep: (lastBeat: number) => boolean): LiveNode[] {
    const nodes: LiveNode[] = [];
    for (const [nodeId, { lastBeat, json }] of this.nodes) {
      if (keep(lastBeat)) nodes.push({ nodeId, lastBeat, info: JSON.parse(json) as NodeAdvert });
    }
    return nodes.sort((a, b) => (a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0));
  }
}

/** The set stored under `key`, created empty when missing. */
function setOf<T>(map: Map<string, Set<T>>, key: string): Set<T> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

/** The list stored under `key`, created empty when missing. */
function listOf<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (!list) map.set(key, (list = []));
  return list;
}

