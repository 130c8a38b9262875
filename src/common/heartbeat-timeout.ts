import { ValidationError } from './errors/scheduler-error.js';

export const MIN_HEARTBEAT_TIMEOUT_MS = 1000;

/** 0 = none, else 1000 ms up to the task's or job's timeoutMs (docs/long-tasks.md). @throws ValidationError(field) */
export function assertHeartbeatTimeout(heartbeatTimeoutMs: number, timeoutMs: number, field: string): void {
  if (heartbeatTimeoutMs === 0) return;
  if (heartbeatTimeoutMs < MIN_HEARTBEAT_TIMEOUT_MS || heartbeatTimeoutMs > timeoutMs) {
    throw new ValidationError(
      field,
      `must be 0 (none) or from ${MIN_HEARTBEAT_TIMEOUT_MS} to timeoutMs (${timeoutMs}) ms, got ${heartbeatTimeoutMs}`,
    );
  }
}
