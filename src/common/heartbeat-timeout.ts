import { ValidationError } from './errors/scheduler-error.js';

export const MIN_HEARTBEAT_TIMEOUT_MS = 1000;

/** What ends a long attempt (docs/long-tasks.md "Timeout modes"): timeoutMs (HARD), or only silence (HEARTBEAT). */
export enum TimeoutMode {
  HARD = 'HARD',
  HEARTBEAT = 'HEARTBEAT',
}

/** The timeout fields a task, a job and an instance share; times ms. */
export interface AttemptTimeouts {
  timeoutMode: string;
  timeoutMs: number;
  heartbeatTimeoutMs: number;
}

/** HARD: 0 (none) or 1000 ms..timeoutMs; HEARTBEAT: 1000 ms..maxRunTimeMs, required. @throws ValidationError(field) */
export function assertHeartbeatTimeout(t: AttemptTimeouts, maxRunTimeMs: number, field: string): void {
  const hb = t.heartbeatTimeoutMs;
  if (t.timeoutMode === TimeoutMode.HEARTBEAT) {
    if (hb >= MIN_HEARTBEAT_TIMEOUT_MS && hb <= maxRunTimeMs) return;
    throw new ValidationError(
      field,
      `timeoutMode HEARTBEAT ends an attempt only on silence, so it needs a heartbeat timeout from ` +
        `${MIN_HEARTBEAT_TIMEOUT_MS} to MAX_RUN_TIME_MS (${maxRunTimeMs}) ms, got ${hb}`,
    );
  }
  if (hb === 0) return;
  if (hb < MIN_HEARTBEAT_TIMEOUT_MS || hb > t.timeoutMs) {
    throw new ValidationError(
      field,
      `must be 0 (none) or from ${MIN_HEARTBEAT_TIMEOUT_MS} to timeoutMs (${t.timeoutMs}) ms, got ${hb}`,
    );
  }
}

/** A `timeoutMs` a caller sent (undefined: none) within MAX_RUN_TIME_MS. @throws ValidationError(field) */
export function assertWithinMaxRunTime(timeoutMs: number | undefined, maxRunTimeMs: number, field: string): void {
  if (timeoutMs === undefined || timeoutMs <= maxRunTimeMs) return;
  throw new ValidationError(
    field,
    `must be at most MAX_RUN_TIME_MS (${maxRunTimeMs} ms), the operator's bound on an attempt's run time, ` +
      `got ${timeoutMs}`,
  );
}

/** An attempt ends after `ms` of run, for `reason` (TIMEOUT: its timeoutMs; MAX_RUN_TIME: MAX_RUN_TIME_MS). */
export interface RunLimit {
  ms: number;
  reason: 'TIMEOUT' | 'MAX_RUN_TIME';
}

/** HARD: its timeoutMs; HEARTBEAT: none of its own; at most `maxRunTimeMs` either way (rows stored before too). */
export function runLimitOf(t: Pick<AttemptTimeouts, 'timeoutMode' | 'timeoutMs'>, maxRunTimeMs: number): RunLimit {
  if (t.timeoutMode !== TimeoutMode.HEARTBEAT && t.timeoutMs <= maxRunTimeMs) {
    return { ms: t.timeoutMs, reason: 'TIMEOUT' };
  }
  return { ms: maxRunTimeMs, reason: 'MAX_RUN_TIME' };
}
