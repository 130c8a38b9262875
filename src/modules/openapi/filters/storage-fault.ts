import { Logger } from '@nestjs/common';
import { SchedulerError, type Storage, StorageUnavailableError, WarnOnce } from '../../../common/index.js';
import { dbFaultWithin, isDbUnavailable } from '../../metadata/index.js';

/** ioredis's messages for a command that never reached a working Redis. */
const REDIS_MESSAGES = new Set(['Connection is closed.', 'Command timed out', 'None of startup nodes is available']);
/** Redis's replies while it cannot serve (loading, a replica, a failover or cluster change under way). */
const REDIS_REPLIES = /^(LOADING|READONLY|MASTERDOWN|CLUSTERDOWN|TRYAGAIN) /;

/**
 * True when `err` says Redis cannot be reached or cannot serve now: a command failed after its reconnection tries
 * (MaxRetriesPerRequestError), on a closed connection, past STORAGE_TIMEOUT_MS ("Command timed out"), with the
 * offline queue off, or a LOADING / READONLY / MASTERDOWN / CLUSTERDOWN / TRYAGAIN reply.
 */
export function isRedisUnavailable(err: unknown): boolean {
  const e = err as { name?: string; message?: string } | null;
  if (!e || typeof e.message !== 'string') return false;
  if (e.name === 'MaxRetriesPerRequestError' || e.name === 'ClusterAllFailedError') return true;
  if (REDIS_MESSAGES.has(e.message) || e.message.startsWith("Stream isn't writeable")) return true;
  return e.name === 'ReplyError' && REDIS_REPLIES.test(e.message);
}

const logger = new Logger('StorageUnavailable');
let lastRedisFaultAt = 0;

/** The store that failed an answer or a statement within the last `ms` (the database first), if one did. */
export function recentStorageFault(ms: number): Storage | undefined {
  if (dbFaultWithin(ms)) return 'database';
  return Date.now() - lastRedisFaultAt <= ms ? 'redis' : undefined;
}
const warnings = new WarnOnce((message) => logger.warn(message));

/** The store `err` (or a cause of it, 3 deep) says cannot be reached, else undefined. Redis is asked first. */
export function unreachableStorage(err: unknown): Storage | undefined {
  for (let e = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (isRedisUnavailable(e)) return 'redis';
    if (isDbUnavailable(e)) return 'database';
  }
  return undefined;
}

/**
 * A thrown value as the HTTP edge answers it: a database or Redis that cannot be reached becomes a
 * {@link StorageUnavailableError} (503, Retry-After; its cause is logged at most once a minute per message, never
 * sent: it may name a host); anything else is returned as it is.
 */
export function asStorageFault(err: unknown): unknown {
  if (err instanceof SchedulerError) return err;
  const storage = unreachableStorage(err);
  if (!storage) return err;
  if (storage === 'redis') lastRedisFaultAt = Date.now();
  warnings.warn(`the ${storage} cannot be reached: ${(err as Error)?.message ?? String(err)}`, Date.now());
  return new StorageUnavailableError(storage);
}
