import type { Checkpoint } from './job-context.js';

// The app worker protocol's shapes (docs/workers.md "Routes"), shared by the api that answers them and the SDK
// that sends them; plain JSON, times epoch ms UTC.

/** What `POST /api/worker/nodes` answers (docs/workers.md "Routes"); durations ms. */
export interface NodeSettings {
  nodeId: string;
  heartbeatIntervalMs: number;
  leaseMs: number;
  leaseRenewMs: number;
  nodeTimeoutMs: number;
  maxClaimWaitMs: number;
}

/** One claimed attempt (docs/workers.md "Attempt"): RUNNING, fenced by `fencingToken`; times epoch ms UTC. */
export interface WorkerAttempt {
  instanceId: string;
  requestId: string;
  appId: string;
  jobCode: string | null;
  handler: string;
  params: unknown;
  attempt: number;
  maxAttempts: number;
  fencingToken: number;
  leaseUntil: number;
  /** The attempt's run limit, ms: its timeoutMs (HARD), else MAX_RUN_TIME_MS (docs/long-tasks.md "Timeout modes"). */
  timeoutMs: number;
  /** HARD or HEARTBEAT (absent from an api before it): informative, `timeoutMs` is already the limit of either. */
  timeoutMode?: string;
  heartbeatTimeoutMs: number;
  shardIndex: number;
  shardTotal: number;
  fireTime: number;
  traceId: string;
  /** This attempt's W3C `traceparent` (docs/workers.md "Attempt"): the handler's `ctx.traceparent`. */
  traceparent: string;
  lastCheckpoint: Checkpoint | null;
}

/** A lease the api reports lost: taken back (`LEASE_LOST`) or cancelled (`REVOKED`). */
export interface LostLease {
  instanceId: string;
  fencingToken: number;
  reason: 'LEASE_LOST' | 'REVOKED';
}

/** How an attempt ended, as `finish` reports it. */
export type WorkerOutcome = 'SUCCESS' | 'FAILED' | 'TIMEOUT' | 'HEARTBEAT_TIMEOUT' | 'SHUTDOWN' | 'CANCELLED';

/** A finish body (docs/workers.md "Routes"). */
export interface FinishBody {
  fencingToken: number;
  outcome: WorkerOutcome;
  result?: unknown;
  error?: string;
  retryable?: boolean;
  handlerEndedAt?: number;
}

/** How one finish of a `finishes` call went: `code` is what the single finish route would have answered. */
export interface FinishedItem {
  instanceId: string;
  fencingToken: number;
  code: 200 | 404 | 409;
  status?: string;
  final?: boolean;
  detail?: string;
}
