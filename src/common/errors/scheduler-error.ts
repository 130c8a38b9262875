/** Stable error codes; only the HTTP edge maps them to statuses (domain code never throws HttpException). */
export enum ErrorCode {
  VALIDATION = 'VALIDATION',
  NOT_FOUND = 'NOT_FOUND',
  CONFLICT = 'CONFLICT',
  UNAUTHORIZED = 'UNAUTHORIZED',
  FORBIDDEN = 'FORBIDDEN',
  RATE_LIMITED = 'RATE_LIMITED',
  TOO_MANY_UNFINISHED = 'TOO_MANY_UNFINISHED',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  ILLEGAL_TRANSITION = 'ILLEGAL_TRANSITION',
  CONFIG = 'CONFIG',
  HANDLER_NOT_FOUND = 'HANDLER_NOT_FOUND',
  /** An Idempotency-Key used before with another request (method, path and query, body): 409. */
  IDEMPOTENCY_KEY_REUSED = 'IDEMPOTENCY_KEY_REUSED',
  /** The first request of an Idempotency-Key is still running: 409 with Retry-After. */
  IDEMPOTENCY_IN_PROGRESS = 'IDEMPOTENCY_IN_PROGRESS',
  TOO_MANY_IDEMPOTENCY_KEYS = 'TOO_MANY_IDEMPOTENCY_KEYS',
  STORAGE_UNAVAILABLE = 'STORAGE_UNAVAILABLE',
  INTERNAL = 'INTERNAL',
}

/** Base error of Tickwheel; `field` names the offending input (a body field, a setting) when there is one. */
export class SchedulerError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = this.constructor.name;
  }
}

/** A request or definition that fails validation; `field` names the part at fault. */
export class ValidationError extends SchedulerError {
  constructor(field: string, message: string) {
    super(ErrorCode.VALIDATION, message, field);
  }
}

/** A thing looked up by id or code that does not exist. */
export class NotFoundError extends SchedulerError {
  constructor(what: string, id: string) {
    super(ErrorCode.NOT_FOUND, `${what} '${id}' not found`);
  }
}

/** A request that contradicts what is recorded (requestId reused with another body, duplicate code). */
export class ConflictError extends SchedulerError {
  constructor(message: string, field?: string) {
    super(ErrorCode.CONFLICT, message, field);
  }
}

/** A request outside the caller's scopes: a 403 naming the scope it needs (`details.scope`). */
export class ForbiddenError extends SchedulerError {
  constructor(
    message: string,
    readonly scope?: string,
  ) {
    super(ErrorCode.FORBIDDEN, message, undefined, scope ? { scope } : undefined);
  }
}

/** Backpressure: the app is at its cap of unfinished tasks; a 429 with `Retry-After: retryAfterSeconds`. */
export class TooManyUnfinishedError extends SchedulerError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(ErrorCode.TOO_MANY_UNFINISHED, message, undefined, { retryAfterSeconds });
  }
}

export type Storage = 'database' | 'redis';

/** Seconds a client waits before sending again after a {@link StorageUnavailableError} (its Retry-After). */
export const STORAGE_RETRY_AFTER_S = 5;

/**
 * The database or Redis cannot be reached (refused, lost, no answer within STORAGE_TIMEOUT_MS): a 503 with
 * Retry-After naming the store, never its address (docs/deploy.md "When MySQL or Redis cannot be reached").
 */
export class StorageUnavailableError extends SchedulerError {
  constructor(readonly storage: Storage) {
    super(
      ErrorCode.STORAGE_UNAVAILABLE,
      `the ${storage} cannot be reached; send again after ${STORAGE_RETRY_AFTER_S} s (a requestId replays)`,
      undefined,
      { storage, retryAfterSeconds: STORAGE_RETRY_AFTER_S },
    );
  }
}
