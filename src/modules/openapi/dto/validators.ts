import { ValidateBy } from 'class-validator';
import { jsonBytes, MAX_CODE_CHARS } from '../../../common/index.js';

/** A handler name or a task's requestId: 1-128 of A-Z a-z 0-9 _ . : - (their VARCHAR(128) columns). */
export const NAME_PATTERN = new RegExp(`^[A-Za-z0-9_.:-]{1,${MAX_CODE_CHARS}}$`);
/** A job code: 1-128 of A-Z a-z 0-9 _ . - (its VARCHAR(128) column). */
export const CODE_PATTERN = new RegExp(`^[A-Za-z0-9_.-]{1,${MAX_CODE_CHARS}}$`);

/**
 * The value's JSON text is at most `max` UTF-8 bytes (the size it takes in its TEXT column). One check for
 * every JSON field a DTO stores (task, job and trigger-now params, shardParams); see common/limits.ts.
 */
export function MaxJsonBytes(max: number): PropertyDecorator {
  return ValidateBy({
    name: 'maxJsonBytes',
    constraints: [max],
    validator: {
      validate: (v: unknown) => jsonBytes(v) <= max,
      defaultMessage: (args) =>
        `${args?.property} must be at most ${max} bytes as JSON (got ${jsonBytes(args?.value)})`,
    },
  });
}

/** The Swagger description of `heartbeatTimeoutMs`, the same on tasks and jobs (docs/long-tasks.md). */
export const HEARTBEAT_TIMEOUT_DESCRIPTION =
  'Heartbeat timeout, ms (docs/long-tasks.md): an attempt whose handler neither reports progress, checkpoints ' +
  'nor calls ctx.heartbeat() for this long is stuck and ends TIMEOUT with an error starting ' +
  'HEARTBEAT_TIMEOUT (retried like a timeout). 0 (default) = none; else 1000 up to timeoutMs.';
