import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { BOUNDS, humanMs, MIN_HEARTBEAT_TIMEOUT_MS, TimeoutMode } from '../../../common/index.js';
import { BackoffKind } from '../../metadata/index.js';
import { BoundedInt, stacked } from './validators.js';

const { timeoutMs, retryBackoffMs } = BOUNDS;

/** The Swagger description of `heartbeatTimeoutMs`, the same on tasks and jobs (docs/long-tasks.md). */
export const HEARTBEAT_TIMEOUT_DESCRIPTION =
  'Heartbeat timeout, ms (docs/long-tasks.md): an attempt whose handler neither reports progress, checkpoints ' +
  'nor calls ctx.heartbeat() for this long is stuck and ends TIMEOUT with an error starting ' +
  `HEARTBEAT_TIMEOUT (retried like a timeout). 0 (default) = none; else ${MIN_HEARTBEAT_TIMEOUT_MS} up to timeoutMs. ` +
  `Required with timeoutMode HEARTBEAT: then ${MIN_HEARTBEAT_TIMEOUT_MS} up to MAX_RUN_TIME_MS.`;

/** The Swagger description of `timeoutMode`, the same on tasks and jobs (docs/long-tasks.md "Timeout modes"). */
export const TIMEOUT_MODE_DESCRIPTION =
  'What ends a long attempt (docs/long-tasks.md "Timeout modes"). HARD (default): timeoutMs, even while the ' +
  'handler reports progress or heartbeats. HEARTBEAT: only heartbeatTimeoutMs of silence (required then; the ' +
  "attempt ends TIMEOUT with an error starting HEARTBEAT_TIMEOUT), or the operator's MAX_RUN_TIME_MS (default " +
  '24 h; error starting MAX_RUN_TIME_MS); timeoutMs is kept but not applied.';

/** `timeoutMs` of a task or a job: the time limit of each attempt, ms (BOUNDS.timeoutMs). */
export function AttemptTimeoutMs(): PropertyDecorator {
  return BoundedInt(timeoutMs, {
    api: {
      description:
        `Time limit of one attempt, ms (default ${timeoutMs.default}, max ${humanMs(timeoutMs.max)} and at most ` +
        "the operator's MAX_RUN_TIME_MS). On expiry the signal aborts and the attempt is TIMEOUT. Not applied " +
        'with timeoutMode HEARTBEAT.',
      example: 60000,
    },
  });
}

/** `heartbeatTimeoutMs` of a task or a job, ms; its cross-field rule is assertHeartbeatTimeout's. */
export function HeartbeatTimeoutMs(): PropertyDecorator {
  return BoundedInt(BOUNDS.heartbeatTimeoutMs, { api: { description: HEARTBEAT_TIMEOUT_DESCRIPTION, example: 0 } });
}

/** The Swagger description of `priority`, the same on tasks, jobs and trigger-now (docs/dispatch.md "Priorities"). */
export const PRIORITY_DESCRIPTION =
  `Priority, ${BOUNDS.priority.min} (lowest) to ${BOUNDS.priority.max} (highest), default ` +
  `${BOUNDS.priority.default}. Within its app's share of an executor, higher runs first; waiting raises it one ` +
  'level per PRIORITY_AGING_MS (10 s by default), so a lower one is never starved. A job copies its own to each ' +
  'instance.';

/** `priority` of a task, a job or a trigger-now (BOUNDS.priority); `lead` goes before the shared description. */
export function Priority(lead = ''): PropertyDecorator {
  return BoundedInt(BOUNDS.priority, { api: { description: lead + PRIORITY_DESCRIPTION, example: 3 } });
}

/** `timeoutMode` of a task or a job; its cross-field rule is assertHeartbeatTimeout's. */
export function AttemptTimeoutMode(): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({ enum: TimeoutMode, description: TIMEOUT_MODE_DESCRIPTION }),
    IsOptional(),
    IsIn(Object.values(TimeoutMode)),
  );
}

/** `retryBackoffMs` of a task or a job: the base wait before a retry, ms. */
export function RetryBackoffMs(): PropertyDecorator {
  return BoundedInt(retryBackoffMs, {
    api: {
      description:
        `Base delay between attempts, ms (default ${retryBackoffMs.default}, max ${humanMs(retryBackoffMs.max)}).`,
      example: 1000,
    },
  });
}

/** `retryBackoffKind` of a task or a job (outcome.util's backoffDelayMs applies it). */
export function RetryBackoffKind(): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({
      enum: BackoffKind,
      description:
        'FIXED (default): every retry waits retryBackoffMs. EXPONENTIAL: the wait doubles at each retry, up to ' +
        `${humanMs(retryBackoffMs.max)}, with ±20 % jitter.`,
    }),
    IsOptional(),
    IsIn(Object.values(BackoffKind)),
  );
}
