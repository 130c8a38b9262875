import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { Request, Response } from 'express';
import {
  ErrorCode,
  ForbiddenError,
  SchedulerError,
  StorageUnavailableError,
  TooManyUnfinishedError,
} from '../../../common/index.js';
import { asStorageFault } from './storage-fault.js';

const STATUS: Record<ErrorCode, number> = {
  [ErrorCode.VALIDATION]: 400,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.UNAUTHORIZED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.TOO_MANY_UNFINISHED]: 429,
  [ErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: 415,
  [ErrorCode.ILLEGAL_TRANSITION]: 409,
  [ErrorCode.CONFIG]: 500,
  [ErrorCode.HANDLER_NOT_FOUND]: 400,
  [ErrorCode.IDEMPOTENCY_KEY_REUSED]: 409,
  [ErrorCode.IDEMPOTENCY_IN_PROGRESS]: 409,
  [ErrorCode.TOO_MANY_IDEMPOTENCY_KEYS]: 429,
  [ErrorCode.STORAGE_UNAVAILABLE]: 503,
  [ErrorCode.INTERNAL]: 500,
};

/** The RFC 9457 fields of a Tickwheel error, without `type` and `instance` (a whole answer's or one batch item's). */
export interface ProblemFields {
  status: number;
  title: string;
  code: string;
  detail: string;
  field?: string;
  /** A 403's missing scope (README "Tenancy and scopes"). */
  scope?: string;
  /** A 503 STORAGE_UNAVAILABLE's store: `database` or `redis`. */
  storage?: string;
}

/** Status, title, code, detail and field of `err`, as the problem+json answer carries them. */
export function problemFields(err: SchedulerError): ProblemFields {
  const status = STATUS[err.code] ?? 500;
  const scope = err instanceof ForbiddenError ? err.scope : undefined;
  const storage = err instanceof StorageUnavailableError ? err.storage : undefined;
  return {
    status,
    title: titleOf(status),
    code: err.code,
    detail: err.message,
    ...(err.field ? { field: err.field } : {}),
    ...(scope ? { scope } : {}),
    ...(storage ? { storage } : {}),
  };
}

function titleOf(status: number): string {
  return HttpStatus[status]?.replace(/_/g, ' ').toLowerCase() ?? 'error';
}

/** What a thrown value answers: its status and the problem fields besides `type`, `title`, `status`, `instance`. */
function problemOf(
  exception: unknown,
  logger: Logger,
  req: Request,
): { status: number; body: Record<string, unknown> } {
  if (exception instanceof SchedulerError) {
    const problem = problemFields(exception);
    if (problem.status >= 500 && problem.status !== 503) logger.error(exception.message);
    return { status: problem.status, body: { ...problem } };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const r = exception.getResponse();
    const detail = typeof r === 'string' ? r : ((r as { message?: unknown }).message ?? exception.message);
    return {
      status,
      body: {
        code: status === 404 ? ErrorCode.NOT_FOUND : status === 413 ? 'PAYLOAD_TOO_LARGE' : 'HTTP',
        detail: Array.isArray(detail) ? detail.join('; ') : String(detail),
      },
    };
  }
  logger.error(
    `unhandled error on ${req.method} ${req.originalUrl}: ${(exception as Error)?.stack ?? String(exception)}`,
  );
  return { status: 500, body: { code: ErrorCode.INTERNAL, detail: 'internal error' } };
}

const defaultLogger = new Logger('ProblemDetailsFilter');

/**
 * Writes `exception` as the `application/problem+json` answer (RFC 9457) every route gives: `type`,
 * `title`, `status`, `detail`, `instance`, plus `code` and, for validation errors, `field`. Unknown errors
 * are a 500 whose cause is logged, never sent; a database or Redis that cannot be reached is a 503
 * STORAGE_UNAVAILABLE with Retry-After ({@link asStorageFault}). Shared by the filter and the /api request
 * middleware (which answers before any route runs), so both write the same problem.
 */
export function sendProblem(req: Request, res: Response, thrown: unknown, logger: Logger = defaultLogger): void {
  const exception = asStorageFault(thrown);
  const { status, body } = problemOf(exception, logger, req);
  if (exception instanceof TooManyUnfinishedError) res.setHeader('Retry-After', String(exception.retryAfterSeconds));
  else if (exception instanceof SchedulerError && typeof exception.details?.retryAfterSeconds === 'number')
    res.setHeader('Retry-After', String(exception.details.retryAfterSeconds));
  res
    .status(status)
    .type('application/problem+json')
    .json({ type: 'about:blank', title: titleOf(status), status, instance: req.originalUrl, ...body });
}

/** Every error of every route leaves as problem+json ({@link sendProblem}). */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger(ProblemDetailsFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    sendProblem(ctx.getRequest<Request>(), ctx.getResponse<Response>(), exception, this.logger);
  }
}
