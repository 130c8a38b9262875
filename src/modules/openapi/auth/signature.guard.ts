import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import { Request } from 'express';
import { ErrorCode, SchedulerError } from '../../../common/index.js';
import { isApiPath, UNAUTHORIZED_DETAIL, wasVerified } from './signed-request.middleware.js';

export type { SignedRequest } from './signed-request.middleware.js';

/**
 * The backstop of request signing (docs/api.md, README "Signing"): the SignedRequestMiddleware checks every
 * request under `/api` before any route runs; this guard refuses, with the same 401, any request that
 * reaches a handler of a controller mounted under `api`, or a URL under `/api` in any letter case
 * (Express matches routes case-insensitively: `/API/jobs` reaches the jobs controller), without having
 * passed that middleware, whatever path spelling let it slip by.
 */
@Injectable()
export class SignatureGuard implements CanActivate {
  private readonly logger = new Logger(SignatureGuard.name);

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    if (!this.isApiRoute(context, req) || wasVerified(req)) return true;
    this.logger.debug(
      `401 ${req.method} ${req.originalUrl.slice(0, 200)} from ${req.ip}: reached an /api route without the ` +
        `signature check`,
    );
    throw new SchedulerError(ErrorCode.UNAUTHORIZED, UNAUTHORIZED_DETAIL);
  }

  /** True for a handler of a controller mounted under `api`, or a URL under `/api` (any case). */
  private isApiRoute(context: ExecutionContext, req: Request): boolean {
    const mounted = this.reflector.get<string | string[] | undefined>(PATH_METADATA, context.getClass()) ?? [];
    // A controller's mount path has no leading slash ('api/jobs'); a request path has one.
    return (
      (Array.isArray(mounted) ? mounted : [mounted]).some((p) => isApiPath(p.startsWith('/') ? p : `/${p}`)) ||
      isApiPath(req.path)
    );
  }
}
