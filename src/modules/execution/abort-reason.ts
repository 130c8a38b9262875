import { SchedulerError } from '../../common/index.js';
import { JobInstanceStatus as S } from '../metadata/index.js';
import { JobFailure } from './job-context.js';
import type { AttemptOutcome } from './outcome-policy.js';

/**
 * Why a running attempt's signal was aborted. The abort reason a handler sees is `new Error(<reason>)`, so
 * `ctx.signal.reason.message` is one of these values.
 */
export enum AbortReason {
  /** The attempt ran past the instance's timeoutMs. */
  TIMEOUT = 'TIMEOUT',
  /** This node shuts down and the grace ran out: the instance is handed back without using up an attempt. */
  SHUTDOWN = 'SHUTDOWN',
  /** The instance was cancelled or taken away (the row is no longer RUNNING at this attempt's token). */
  REVOKED = 'REVOKED',
  /** A lease renewal found the row no longer ours. */
  LEASE_LOST = 'LEASE_LOST',
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

/**
 * The outcome of an attempt aborted for `reason`. `err` is what the handler's run rejected with, used for
 * LEASE_LOST: the row already belongs to someone else, so the finishing write loses and this plain
 * failure is never recorded (it would be, were the lease check wrong).
 */
export function abortedOutcome(reason: AbortReason, timeoutMs: number, err: unknown): AttemptOutcome {
  switch (reason) {
    case AbortReason.TIMEOUT:
      return { status: S.TIMEOUT, error: `timed out after ${timeoutMs} ms` };
    case AbortReason.SHUTDOWN:
      return { status: 'HANDED_BACK', error: 'node shut down before the handler finished' };
    case AbortReason.REVOKED:
      return { status: S.CANCELLED, error: 'cancelled (or taken away) while running' };
    case AbortReason.LEASE_LOST:
      return failedOutcome(err);
  }
}

/**
 * The outcome of a handler that threw `err`: FAILED with `<name>: <field> <message>` (no name for a plain
 * Error); a {@link JobFailure} keeps its result, and one that is not retryable is final.
 */
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
