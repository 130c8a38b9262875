import { type RunLimit, SchedulerError } from '../../common/index.js';
import { JobInstanceStatus as S } from '../metadata/index.js';
import { JobFailure } from '../handler/index.js';
import type { AttemptOutcome } from './outcome-policy.js';

/**
 * Why a running attempt's signal was aborted: past timeoutMs, this node's shutdown, the instance cancelled or
 * taken away (no longer RUNNING at this token), a lease renewal that found the row no longer ours, a handler silent
 * for its heartbeatTimeoutMs, past the operator's MAX_RUN_TIME_MS (docs/long-tasks.md "Timeout modes"). A handler
 * sees `new Error(<reason>)` as `ctx.signal.reason`.
 */
export enum AbortReason {
  TIMEOUT = 'TIMEOUT',
  SHUTDOWN = 'SHUTDOWN',
  REVOKED = 'REVOKED',
  LEASE_LOST = 'LEASE_LOST',
  HEARTBEAT_TIMEOUT = 'HEARTBEAT_TIMEOUT',
  MAX_RUN_TIME = 'MAX_RUN_TIME',
}

const REASONS: ReadonlySet<string> = new Set(Object.values(AbortReason));

/** Aborts an attempt's controller for `reason`. */
export function abortAttempt(controller: AbortController, reason: AbortReason): void {
  controller.abort(new Error(reason));
}

/** The reason `signal` was aborted with by {@link abortAttempt}; null when it was not aborted (or otherwise). */
export function abortReasonOf(signal: AbortSignal): AbortReason | null {
  if (!signal.aborted) return null;
  const message = String((signal.reason as Error)?.message ?? '');
  return REASONS.has(message) ? (message as AbortReason) : null;
}

/** The abort reason of an attempt's {@link RunLimit}: its own timeoutMs, or the operator's MAX_RUN_TIME_MS. */
export function limitReason(limit: RunLimit): AbortReason {
  return limit.reason === 'TIMEOUT' ? AbortReason.TIMEOUT : AbortReason.MAX_RUN_TIME;
}

/**
 * The outcome of an attempt aborted for `reason` (`limit`: its run limit, runLimitOf; `heartbeatTimeoutMs`: the
 * instance's); LEASE_LOST is the plain failure of `err` (what the run rejected with): the row is someone else's,
 * so that write loses.
 */
export function abortedOutcome(
  reason: AbortReason,
  limit: RunLimit,
  err: unknown,
  heartbeatTimeoutMs = 0,
): AttemptOutcome {
  switch (reason) {
    case AbortReason.TIMEOUT:
      return { status: S.TIMEOUT, error: `timed out after ${limit.ms} ms` };
    case AbortReason.MAX_RUN_TIME:
      // A TIMEOUT to the retry policy; the prefix names the operator's bound, not the task's own timeoutMs.
      return {
        status: S.TIMEOUT,
        error: `MAX_RUN_TIME_MS: still running after the longest run allowed, ${limit.ms} ms`,
      };
    case AbortReason.HEARTBEAT_TIMEOUT:
      // A TIMEOUT to the retry policy; the prefix tells it from the hard cap.
      return {
        status: S.TIMEOUT,
        error: `HEARTBEAT_TIMEOUT: no progress, heartbeat or checkpoint for ${heartbeatTimeoutMs} ms`,
      };
    case AbortReason.SHUTDOWN:
      return { status: 'HANDED_BACK', error: 'node shut down before the handler finished' };
    case AbortReason.REVOKED:
      return { status: S.CANCELLED, error: 'cancelled (or taken away) while running' };
    case AbortReason.LEASE_LOST:
      return failedOutcome(err);
  }
}

/** FAILED with `<name>: <field> <message>` (no name for an Error); a {@link JobFailure} keeps its result. */
export function failedOutcome(err: unknown): AttemptOutcome {
  const e = err as Error;
  const field = err instanceof SchedulerError && err.field ? `${err.field} ` : ''; // "ValidationError: params.url ..."
  const failure = err instanceof JobFailure ? err : undefined;
  return {
    status: S.FAILED,
    error: `${e.name === 'Error' ? '' : `${e.name}: `}${field}${e.message}`,
    result: failure?.result,
    final: failure?.retryable === false,
  };
}
