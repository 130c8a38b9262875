/**
 * The coordination port (DESIGN §2, §3): everything Tickwheel keeps outside the database. Two adapters
 * implement it: Redis (cluster shape, Lua in `redis/lua/*.lua`) and in-process (standalone shape).
 * Both pass one contract suite (test/integration/coordination.contract.ts).
 *
 * Rules every adapter keeps:
 * - Nothing here is a source of truth: all of it can be rebuilt from MySQL (DESIGN §3).
 * - Queues carry instance ids, never payloads.
 * - Times are epoch milliseconds (UTC), durations milliseconds.
 * - Keys are scoped to one namespace (Redis: hash tag `{tw:<namespace>}`), so two namespaces never see
 *   each other's state.
 */
export interface CoordinationPort {
  // ---- locks (leader election, DESIGN §5) ----
  /** SET NX PX: true when `owner` now holds `name` for `ttlMs` (also true when it already held it; TTL reset). */
  tryAcquireLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends the lock only if `owner` still holds it; false when lost. */
  renewLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Releases the lock only if `owner` holds it; false otherwise. */
  releaseLock(name: string, owner: string): Promise<boolean>;
  /** Current holder of the lock, or null. */
  lockOwner(name: string): Promise<string | null>;

  // ---- per-node reliable queues (DESIGN §6) ----
  /** Appends ids to the tail of the node's ready list (FIFO). */
  pushReady(nodeId: string, ids: string[]): Promise<void>;
  /**
   * Moves the oldest id from the node's ready list into its processing list atomically and returns it;
   * waits up to `timeoutMs` for one to arrive; null when none did. A claimed id stays in the processing
   * list until {@link ack}, so a crash between claim and ack loses nothing.
   */
  claim(nodeId: string, timeoutMs: number): Promise<string | null>;
  /** Removes one occurrence of `id` from the node's processing list. */
  ack(nodeId: string, id: string): Promise<void>;
  /** Atomically empties both lists of a node and returns every id they held (processing first, then ready). */
  drainNode(nodeId: string): Promise<string[]>;
  /** Lengths of the node's lists. */
  queueDepth(nodeId: string): Promise<{ ready: number; processing: number }>;
  /** True when `id` is in the node's ready or processing list. */
  isQueued(nodeId: string, id: string): Promise<boolean>;

  // ---- delay queue (retries, delayed tasks; DESIGN §7, §8) ----
  /** Adds (or moves) `id` to be due at `dueAtMs`. */
  scheduleDelayed(id: string, dueAtMs: number): Promise<void>;
  /** Atomically removes and returns up to `limit` ids due at or before `nowMs`, earliest first. */
  takeDue(nowMs: number, limit: number): Promise<string[]>;
  /** Due time of `id`, or null when it is not in the delay queue. */
  delayedDueAt(id: string): Promise<number | null>;

  // ---- node registry (heartbeats, DESIGN §6) ----
  /** Records a heartbeat at `nowMs` and the node's advertisement (handlers, capacity, labels...). */
  heartbeat(nodeId: string, info: NodeAdvert, nowMs: number): Promise<void>;
  /** Nodes whose last beat is at or after `sinceMs`, sorted by node id. */
  liveNodes(sinceMs: number): Promise<LiveNode[]>;
  /** Nodes whose last beat is before `sinceMs` (still registered), sorted by node id. */
  staleNodes(sinceMs: number): Promise<LiveNode[]>;
  /** Forgets a node (after its queues were drained, or on clean shutdown). */
  removeNode(nodeId: string): Promise<void>;

  // ---- counters and nonces ----
  /** Atomically increments a named counter by `by` and returns the new value. */
  increment(name: string, by?: number): Promise<number>;
  /** SET NX PX of a nonce for one app: true the first time within `ttlMs`, false on a replay. */
  acceptNonce(appId: string, nonce: string, ttlMs: number): Promise<boolean>;

  /** Releases connections and timers. Idempotent. */
  close(): Promise<void>;
}

/** What an executor node advertises with each heartbeat. */
export interface NodeAdvert {
  handlers: string[];
  capacity: number;
  /** Tasks running now on the node. */
  active: number;
  labels: Record<string, string>;
  host: string;
  startedAt: number;
}

/** A registered node and its last heartbeat (epoch ms). */
export interface LiveNode {
  nodeId: string;
  lastBeat: number;
  info: NodeAdvert;
}

/** Injection token for the {@link CoordinationPort}. */
export const COORDINATION = Symbol('COORDINATION');
