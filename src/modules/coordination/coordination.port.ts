// The coordination port (docs/architecture.md): what Tickwheel keeps outside the database, one interface per
// concern, each contract-tested on both adapters. Nothing here is a source of truth (all of it is rebuilt from
// MySQL); queues carry ids, not payloads; times are epoch ms (UTC); keys are scoped to one namespace.

/** How long a reader may keep a view of the node registry (ms); a node changing its advert allows for it. */
export const REGISTRY_VIEW_MS = 250;

/** {@link LockPort.tryAcquireLock}'s answer: held, or refused with the holder's remaining TTL (ms, ≥ 1). */
export type LockAttempt = { held: true } | { held: false; holderTtlMs: number };

/** Locks with an owner and a TTL (leader election, docs/trigger.md). */
export interface LockPort {
  /** SET NX PX: held when `owner` now holds `name` for `ttlMs` (also when it already held it; TTL reset). */
  tryAcquireLock(name: string, owner: string, ttlMs: number): Promise<LockAttempt>;
  /** Extends the lock only if `owner` still holds it; false when lost. */
  renewLock(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Releases the lock only if `owner` holds it; false otherwise. */
  releaseLock(name: string, owner: string): Promise<boolean>;
  lockOwner(name: string): Promise<string | null>;
}

/**
 * Per-node reliable queues (docs/dispatch.md): per app, ids ordered by rank (lowest first, equal ranks in id order);
 * apps in turn; claimed ids stay until acked.
 */
export interface NodeQueuePort {
  /**
   * Queues each id in its app's order by its rank (an id already queued takes the new rank), wakes a waiting claim.
   * @throws ValidationError(`appId` | `rank`) if an app id is empty or a rank not finite.
   */
  pushReady(nodeId: string, items: ReadyItem[]): Promise<void>;
  /** {@link claimMany} of one id without an app cap; null when none came within `timeoutMs`. */
  claim(nodeId: string, timeoutMs: number): Promise<string | null>;
  /**
   * Moves up to `max` ids into processing atomically: round robin over apps from where the last claim left off,
   * lowest rank first within an app, skipping an app at `share.cap` (held + taken); legacy-list ids first (`appId`
   * null). With nothing to take it waits up to `timeoutMs` for a push, or until `share.freed` aborts if only the
   * cap held.
   */
  claimMany(nodeId: string, max: number, timeoutMs: number, share?: ClaimShare): Promise<ClaimedItem[]>;
  ack(nodeId: string, id: string): Promise<void>;
  ackMany(nodeId: string, ids: string[]): Promise<void>;
  /** Empties the node's queues atomically: processing first, then the legacy list, then each app's list. */
  drainNode(nodeId: string): Promise<string[]>;
  queueDepth(nodeId: string): Promise<QueueDepth>;
  /** Aligned with `nodeIds`; atomic per node, not across nodes. */
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

/** Counting semaphores with expiring holders (maxConcurrency, docs/admission.md), trusted once seeded from MySQL. */
export interface SemaphorePort {
  /**
   * Admits `holders` in order (a holder already in is refreshed) while fewer than `limit` hold, until `nowMs + ttlMs`.
   * @returns the admitted holders; null when the semaphore is not known (seed it, ask again).
   * @throws ValidationError when `limit` is not a positive integer or a holder starts with `~`.
   */
  acquireSlots(name: string, holders: string[], limit: number, ttlMs: number, nowMs: number): Promise<string[] | null>;
  /**
   * Marks it known for at least `ttlMs`; each holder holds a slot whatever the limit (others are kept).
   * @throws ValidationError when a holder starts with `~` (reserved for the mark).
   */
  seedSlots(name: string, holders: string[], ttlMs: number, nowMs: number): Promise<void>;
  releaseSlot(name: string, holder: string): Promise<void>;
}

/**
 * Admission of an app's signed requests (docs/api.md): replay nonces and rate-limit buckets. Both are per-app
 * windows timed by the store's clock, not the caller's, and expire by themselves (so not with the counters).
 */
export interface NoncePort {
  /** SET NX PX of a nonce for one app: true the first time within `ttlMs`, false on a replay. */
  acceptNonce(appId: string, nonce: string, ttlMs: number): Promise<boolean>;
  /**
   * Takes `n` tokens, all or none, from bucket `key` (size `burst`, refilled at `ratePerSecond`, new: full).
   * @throws ValidationError when the rate is not positive, `burst` not a positive integer, or `n` not in 1..burst.
   */
  takeTokens(key: string, ratePerSecond: number, burst: number, n: number): Promise<TokenTake>;
  /**
   * {@link acceptNonce}, then, only for a nonce not seen before, {@link takeTokens} of `bucket` (null: no limit),
   * in one step (one round trip on Redis). @throws ValidationError as the two do.
   */
  admitRequest(appId: string, nonce: string, ttlMs: number, bucket: BucketTake | null): Promise<RequestAdmission>;
}

/** The tokens {@link NoncePort.admitRequest} takes: `n` of bucket `key` (size `burst`, refilled at `ratePerSecond`). */
export interface BucketTake {
  key: string;
  ratePerSecond: number;
  burst: number;
  n: number;
}

/** The answer of {@link NoncePort.admitRequest}: a new nonce or a replay, and the bucket's take (null: none taken). */
export interface RequestAdmission {
  nonceAccepted: boolean;
  take: TokenTake | null;
}

/** Shared counters without expiry (ROUND_ROBIN routing, docs/dispatch.md). */
export interface CounterPort {
  /** Atomically adds `by` (an integer, default 1) and returns the new value. */
  increment(name: string, by?: number): Promise<number>;
}

/** Wake-ups between processes, at most once (PUBLISH): only a hint, listeners still poll for the same work. */
export interface SignalPort {
  publish(name: string, message: string): Promise<void>;
  /** Calls `listener` with each message published after this resolves, until the returned function runs. */
  subscribe(name: string, listener: (message: string) => void): Promise<() => Promise<void>>;
}

/** Every concern at once, for code that needs several; an adapter implements this. */
export interface CoordinationPort
  extends LockPort, NodeQueuePort, DelayQueuePort, NodeRegistryPort, SemaphorePort, NoncePort, CounterPort, SignalPort {
  /** Releases connections and timers; pending claims resolve empty. Idempotent. */
  close(): Promise<void>;
}

export interface QueueDepth {
  ready: number;
  processing: number;
}

/** The answer of {@link NoncePort.takeTokens}; durations in ms. */
export interface TokenTake {
  allowed: boolean;
  /** Whole tokens left. */
  remaining: number;
  /** When refused, until `n` tokens are there (if nobody else takes any); 0 when allowed. */
  retryAfterMs: number;
  fullInMs: number;
}

/** What an executor node advertises with each heartbeat. */
export interface NodeAdvert {
  handlers: string[];
  capacity: number;
  /** Tasks running now. */
  active: number;
  labels: Record<string, string>;
  host: string;
  startedAt: number;
  /**
   * The app owning an app worker's node (docs/workers.md): it takes only that app's instances. Null or absent (an
   * advert of an older version) for a trusted executor, which takes any app's.
   */
  appId?: string | null;
  /** The database's clock minus the node's, ms, as of its last check (DbClock); null or absent: not measured. */
  clockOffsetMs?: number | null;
}

/** An instance id to queue on a node, its owner app (JobInstance.appId, non-empty) and its rank. */
export interface ReadyItem {
  id: string;
  appId: string;
  /** Its place in its app's order on the node, lowest first: dispatch's `readyRank` (docs/dispatch.md "Priorities"). */
  rank: number;
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
 * Channel of API clients changed (app ids; docs/tenancy.md "Disabled clients"): every process drops its cached copy
 * of the client at once; its cache's TTL stays the bound when a message is lost.
 */
export const CLIENTS_CHANGED_CHANNEL = 'clients-changed';

/** Channel of instances cancelled while RUNNING (instance ids); the heartbeat's check still finds a lost one. */
export const INSTANCE_STOP_CHANNEL = 'instance-stop';

/** Channel of ids put in the delay queue due now (empty messages); the leader's 200-ms pump still finds them. */
export const DELAY_DUE_CHANNEL = 'delay-due';
