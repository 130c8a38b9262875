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
/**
 * How long a reader may keep a view of the node registry (dispatchers cache liveNodes this long, so a
 * burst of dispatches costs one round trip). A node changing its advert must allow for views this old.
 */
export const REGISTRY_VIEW_MS = 250;

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

  // ---- per-node reliable queues (DESIGN §6), fair across apps (issue 9) ----
  /**
   * Appends ids to the node's ready queue: each to the tail of its app's list (FIFO within an app). An app
   * whose list was empty joins the node's rotation of apps at its tail. Wakes a claim waiting on the node.
   * @throws ValidationError(`appId`) when an item's app id is empty.
   */
  pushReady(nodeId: string, items: ReadyItem[]): Promise<void>;
  /** {@link claimMany} of one id, without an app cap; the id, or null when none came within `timeoutMs`. */
  claim(nodeId: string, timeoutMs: number): Promise<string | null>;
  /**
   * Moves up to `max` ids from the node's ready queue into its processing list atomically and returns them
   * with their apps, in the order taken: round robin over the node's apps (the rotation goes on from where
   * the last claim left it), oldest first within an app; an app that holds `share.cap` ids (counting
   * `share.held` and what this call took) is passed over. Ids queued by a version before fair sharing (one
   * list per node, no app) are taken first, with `appId` null. A claimed id stays in the processing list
   * until {@link ack}, so a crash between claim and ack loses nothing.
   * When nothing can be taken it waits up to `timeoutMs` for a push to the node, then tries again; a wait
   * with work left that only the cap holds back also ends (with []) when `share.freed` aborts. [] when none
   * came; `max < 1` takes nothing.
   */
  claimMany(nodeId: string, max: number, timeoutMs: number, share?: ClaimShare): Promise<ClaimedItem[]>;
  /** Removes one occurrence of `id` from the node's processing list. */
  ack(nodeId: string, id: string): Promise<void>;
  /** {@link ack} of several ids in one round trip. */
  ackMany(nodeId: string, ids: string[]): Promise<void>;
  /**
   * Atomically empties the node's queues and returns every id they held: processing first, then the ready
   * ids of a previous version's single list, then each app's list (rotation order, oldest first).
   */
  drainNode(nodeId: string): Promise<string[]>;
  /** Lengths of the node's queues (`ready`: every app's list and a previous version's list), read atomically. */
  queueDepth(nodeId: string): Promise<{ ready: number; processing: number }>;
  /** {@link queueDepth} of several nodes in one round trip, aligned with `nodeIds` (each node's figure atomic). */
  queueDepths(nodeIds: string[]): Promise<Array<{ ready: number; processing: number }>>;
  /** Every id in the node's ready (all apps) and processing lists, read in one atomic snapshot (the reconciler's lost-push check). */
  queuedIds(nodeId: string): Promise<Set<string>>;

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

  // ---- semaphores (per-job maxConcurrency, DESIGN §7) ----
  /**
   * Takes slots of semaphore `name` (at most `limit` holders at once) for `holders`, in order: expired
   * holders are dropped first; a holder that already holds a slot is admitted and its expiry refreshed;
   * another is admitted while a slot is free. Admitted holders expire at `nowMs + ttlMs` unless released.
   * A semaphore is trusted only once {@link seedSlots} has built it from MySQL: one that is not known here
   * (never seeded, expired with its holders, or lost with Redis) admits nobody.
   * @returns the admitted holders, in input order; null when the semaphore is not known (the caller seeds
   *   it from the dispatched and running instances and asks again).
   * @throws ValidationError when `limit` is not a positive integer or a holder starts with `~`.
   */
  acquireSlots(name: string, holders: string[], limit: number, ttlMs: number, nowMs: number): Promise<string[] | null>;
  /**
   * Builds semaphore `name` from the source of truth: marks it known and makes each of `holders` hold a
   * slot whatever the limit (they are the instances MySQL says are dispatched or running), expiring no
   * earlier than `nowMs + ttlMs`; other holders are kept. The semaphore then stays known as long as it
   * has a holder, and at least `ttlMs`.
   * @throws ValidationError when a holder starts with `~` (reserved for the mark).
   */
  seedSlots(name: string, holders: string[], ttlMs: number, nowMs: number): Promise<void>;
  /** Frees the slot `holder` holds in semaphore `name` (nothing when it holds none). */
  releaseSlot(name: string, holder: string): Promise<void>;

  // ---- counters and nonces ----
  /** Atomically increments a named counter by `by` and returns the new value. */
  increment(name: string, by?: number): Promise<number>;
  /** SET NX PX of a nonce for one app: true the first time within `ttlMs`, false on a replay. */
  acceptNonce(appId: string, nonce: string, ttlMs: number): Promise<boolean>;

  // ---- rate limits (README "Rate limits") ----
  /**
   * Takes `n` tokens from token bucket `key` (capacity `burst`, refilled continuously at `ratePerSecond`),
   * atomically: either all `n` or none. A bucket never used (or idle until full) starts full. The bucket's
   * clock is the store's own, not the caller's: Redis TIME in the cluster (one clock for every node), the
   * adapter's Clock in process.
   * @throws ValidationError when `ratePerSecond` is not positive, `burst` not a positive integer, or `n`
   *   not an integer from 1 to `burst`.
   */
  takeTokens(key: string, ratePerSecond: number, burst: number, n: number): Promise<TokenTake>;

  // ---- signals (wake-ups between processes; DESIGN §5) ----
  /**
   * Publishes `message` on channel `name` to the subscribers of this namespace that are connected now
   * (Redis PUBLISH: at most once, nothing is kept). A signal is only a hint to act sooner; whoever
   * listens must still find the same work by polling.
   */
  publish(name: string, message: string): Promise<void>;
  /**
   * Calls `listener` with each message published on channel `name` from now on (after the returned
   * promise resolves), until the returned function is called.
   */
  subscribe(name: string, listener: (message: string) => void): Promise<() => Promise<void>>;

  /** Releases connections and timers. Idempotent. */
  close(): Promise<void>;
}

/** The answer of {@link CoordinationPort.takeTokens}. Durations in ms. */
export interface TokenTake {
  /** True when the tokens were taken. */
  allowed: boolean;
  /** Whole tokens left in the bucket after this call. */
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

/** An instance id to queue on a node and the app it belongs to (a node's ready queue is fair across apps). */
export interface ReadyItem {
  id: string;
  /** Owner app (JobInstance.appId); any non-empty string. */
  appId: string;
}

/** An id a claim took and its app; `appId` is null for an id a version before fair sharing queued (no app known). */
export interface ClaimedItem {
  id: string;
  appId: string | null;
}

/**
 * The per-app bound of a claim (EXECUTOR_APP_SHARE, README "Fair sharing"): no app may hold more than `cap`
 * of the claimer's worker slots, so one app's backlog leaves room for the others' work.
 */
export interface ClaimShare {
  /** Most ids one app may hold on the node at once (>= 1). */
  cap: number;
  /** Ids each app holds on the node now (its running handlers); read at every try, so a map kept current is seen current. */
  held: ReadonlyMap<string, number>;
  /** Aborted when one of the claimer's slots frees: a wait that only the cap causes ends then, to claim again. */
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
 * Signal channel of instances cancelled while RUNNING; messages are instance ids (DESIGN §7). The executor
 * running one checks its attempts at once instead of at its next heartbeat. Only a hint: the heartbeat's
 * check still finds a cancel whose signal was lost.
 */
export const INSTANCE_STOP_CHANNEL = 'instance-stop';

/**
 * Signal channel of ids put in the delay queue due now (a WAITING instance released by an executor, a retry
 * without backoff, a hand-back); messages are empty. The leader pumps the delay queue at once instead of at its
 * next 200-ms pump. Only a hint: the periodic pump still finds them.
 */
export const DELAY_DUE_CHANNEL = 'delay-due';

/** Injection token for the {@link CoordinationPort}. */
export const COORDINATION = Symbol('COORDINATION');
