/**
 * The coordination port (docs/architecture.md, modules): everything Tickwheel keeps outside the database, one
 * interface per concern. Both adapters (Redis, in-process) pass one contract suite per concern
 * (test/integration/coordination.contract.ts). Rules: nothing here is a source of truth (all of it can be
 * rebuilt from MySQL, docs/data-model.md); queues carry ids, never payloads; times are epoch ms (UTC),
 * durations ms; keys are scoped to one namespace (Redis: hash tag `{tw:<namespace>}`, docs/redis-keys.md).
 */

/** How long a reader may keep a view of the node registry (ms); a node changing its advert allows for it. */
export const REGISTRY_VIEW_MS = 250;

/** Locks with an owner and a TTL (leader election, docs/trigger.md). */
export interface LockPort {
  /** SET NX PX: true when `owner` now holds `name` for `ttlMs` (also when it already held it; TTL reset). */
  tryAcquireLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends the lock only if `owner` still holds it; false when lost. */
  renewLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Releases the lock only if `owner` holds it; false otherwise. */
  releaseLock(name: string, owner: string): Promise<boolean>;
  lockOwner(name: string): Promise<string | null>;
}

/**
 * Per-node reliable queues (docs/dispatch.md), fair across apps: a FIFO per app, apps served round robin.
 * A claimed id stays in the node's processing list until acked, so a crash between claim and ack loses nothing.
 */
export interface NodeQueuePort {
  /**
   * Appends each id to the tail of its app's list; an app whose list was empty joins the rotation at its
   * tail. Wakes a claim waiting on the node. @throws ValidationError(`appId`) when an app id is empty.
   */
  pushReady(nodeId: string, items: ReadyItem[]): Promise<void>;
  /** {@link claimMany} of one id without an app cap; null when none came within `timeoutMs`. */
  claim(nodeId: string, timeoutMs: number): Promise<string | null>;
  /**
   * Moves up to `max` ids into the processing list atomically, round robin over the node's apps (going on
   * from where the last claim left off), oldest first within an app, passing over an app that holds
   * `share.cap` ids (`share.held` plus this call's). Ids of the pre-fair-sharing single list come first,
   * with `appId` null. When nothing can be taken it waits up to `timeoutMs` for a push; a wait that only
   * the cap causes also ends (with []) when `share.freed` aborts. `max < 1` takes nothing.
   */
  claimMany(nodeId: string, max: number, timeoutMs: number, share?: ClaimShare): Promise<ClaimedItem[]>;
  /** Removes one occurrence of `id` from the node's processing list. */
  ack(nodeId: string, id: string): Promise<void>;
  ackMany(nodeId: string, ids: string[]): Promise<void>;
  /** Empties the node's queues atomically: processing first, then the legacy list, then each app's list. */
  drainNode(nodeId: string): Promise<string[]>;
  /** Lengths of the node's queues (`ready` counts every app's list and the legacy list), read atomically. */
  queueDepth(nodeId: string): Promise<QueueDepth>;
  /** {@link queueDepth} per node, aligned with `nodeIds` (atomic per node, not across nodes). */
  queueDepths(nodeIds: string[]): Promise<QueueDepth[]>;
  /** Every id in the node's ready and processing lists, in one atomic snapshot (lost-push check). */
  queuedIds(nodeId: string): Promise<Set<string>>;
}

/** The delay queue of retries and delayed tasks (docs/execution.md, docs/api.md). */
export interface DelayQueuePort {
  /** Adds (or moves) `id` to be due at `dueAtMs`. */
  scheduleDelayed(id: string, dueAtMs: number): Promise<void>;
  /** Atomically removes and returns up to `limit` ids due at or before `nowMs`, earliest first. */
  takeDue(nowMs: number, limit: number): Promise<string[]>;
  /** Due time of `id`, or null when it is not queued. */
  delayedDueAt(id: string): Promise<number | null>;
}

/** Executor heartbeats and adverts (docs/dispatch.md). */
export interface NodeRegistryPort {
  heartbeat(nodeId: string, info: NodeAdvert, nowMs: number): Promise<void>;
  /** Nodes whose last beat is at or after `sinceMs`, sorted by node id. */
  liveNodes(sinceMs: number): Promise<LiveNode[]>;
  /** Registered nodes whose last beat is before `sinceMs`, sorted by node id. */
  staleNodes(sinceMs: number): Promise<LiveNode[]>;
  removeNode(nodeId: string): Promise<void>;
}

/**
 * Counting semaphores with expiring holders (per-job maxConcurrency, docs/admission.md). A semaphore is
 * trusted only once {@link seedSlots} built it from MySQL; one not known here admits nobody.
 */
export interface SemaphorePort {
  /**
   * Drops expired holders, then admits `holders` in order: one already holding is refreshed, another is
   * admitted while fewer than `limit` hold. Admitted holders expire at `nowMs + ttlMs`.
   * @returns the admitted holders in input order; null when the semaphore is not known (seed it, ask again).
   * @throws ValidationError when `limit` is not a positive integer or a holder starts with `~`.
   */
  acquireSlots(name: string, holders: string[], limit: number, ttlMs: number, nowMs: number): Promise<string[] | null>;
  /**
   * Marks the semaphore known and makes each holder hold a slot whatever the limit, expiring no earlier
   * than `nowMs + ttlMs`; other holders are kept. It stays known while it has a holder, and at least `ttlMs`.
   * @throws ValidationError when a holder starts with `~` (reserved for the mark).
   */
  seedSlots(name: string, holders: string[], ttlMs: number, nowMs: number): Promise<void>;
  releaseSlot(name: string, holder: string): Promise<void>;
}

/**
 * Admission of an app's signed requests (docs/api.md): replay nonces and rate-limit token buckets. Both are
 * per-app state in a time window measured by the store's own clock (not the caller's), and both expire by
 * themselves; that is why the bucket lives here and not with the plain counters.
 */
export interface NoncePort {
  /** SET NX PX of a nonce for one app: true the first time within `ttlMs`, false on a replay. */
  acceptNonce(appId: string, nonce: string, ttlMs: number): Promise<boolean>;
  /**
   * Takes `n` tokens (all or none) from bucket `key` (capacity `burst`, refilled at `ratePerSecond`); a
   * bucket never used starts full. Timed by Redis TIME in the cluster, by the adapter's Clock in process.
   * @throws ValidationError when the rate is not positive, `burst` not a positive integer, or `n` not in 1..burst.
   */
  takeTokens(key: string, ratePerSecond: number, burst: number, n: number): Promise<TokenTake>;
}

/** Shared counters without expiry (ROUND_ROBIN routing, docs/dispatch.md). */
export interface CounterPort {
  /** Atomically adds `by` (an integer, default 1) and returns the new value. */
  increment(name: string, by?: number): Promise<number>;
}

/**
 * Wake-up signals between processes: at most once, nothing kept (Redis PUBLISH). A signal is only a hint;
 * whoever listens must still find the same work by polling.
 */
export interface SignalPort {
  /** Publishes `message` on channel `name` to this namespace's subscribers connected now. */
  publish(name: string, message: string): Promise<void>;
  /** Calls `listener` with each message published once the promise resolved, until the returned function runs. */
  subscribe(name: string, listener: (message: string) => void): Promise<() => Promise<void>>;
}

/** Every concern at once, for code that needs several; an adapter implements this. */
export interface CoordinationPort
  extends LockPort, NodeQueuePort, DelayQueuePort, NodeRegistryPort, SemaphorePort, NoncePort, CounterPort, SignalPort {
  /** Releases connections and timers; pending claims resolve empty. Idempotent. */
  close(): Promise<void>;
}

/** Lengths of one node's queues. */
export interface QueueDepth {
  ready: number;
  processing: number;
}

/** The answer of {@link NoncePort.takeTokens}; durations in ms. */
export interface TokenTake {
  allowed: boolean;
  /** Whole tokens left after this call. */
  remaining: number;
  /** When refused, how long until `n` tokens are there (if nobody else takes any); 0 when allowed. */
  retryAfterMs: number;
  /** How long until the bucket is full again. */
  fullInMs: number;
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

/** An instance id to queue on a node and its owner app (JobInstance.appId, non-empty). */
export interface ReadyItem {
  id: string;
  appId: string;
}

/** An id a claim took and its app; `appId` is null for an id of the pre-fair-sharing single list. */
export interface ClaimedItem {
  id: string;
  appId: string | null;
}

/** The per-app bound of a claim (EXECUTOR_APP_SHARE, README "Fair sharing"). */
export interface ClaimShare {
  /** Most ids one app may hold on the node at once (>= 1). */
  cap: number;
  /** Ids each app holds on the node now; read at every try, so a map kept current is seen current. */
  held: ReadonlyMap<string, number>;
  /** Aborted when one of the claimer's slots frees: a wait that only the cap causes ends then. */
  freed?: AbortSignal;
}

/** A registered node and its last heartbeat (epoch ms). */
export interface LiveNode {
  nodeId: string;
  lastBeat: number;
  info: NodeAdvert;
}

/** Name of the semaphore that enforces one job's maxConcurrency (holders are instance ids). */
export function jobSlots(jobId: string): string {
  return `job:${jobId}`;
}

/**
 * Channel of instances cancelled while RUNNING (messages: instance ids, docs/execution.md); the executor
 * checks at once instead of at its next heartbeat, whose check still finds a cancel whose signal was lost.
 */
export const INSTANCE_STOP_CHANNEL = 'instance-stop';

/**
 * Channel of ids put in the delay queue due now (messages empty): the leader pumps at once instead of at
 * its next 200-ms pump, which still finds them.
 */
export const DELAY_DUE_CHANNEL = 'delay-due';
