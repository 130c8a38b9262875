import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import { ErrorCode, SchedulerError } from '../../../common/index.js';
import { Scope } from '../../metadata/index.js';
import { requireScope } from '../../jobs/index.js';
import { ApiProblem } from '../dto/problem.dto.js';
import { callerOf, type ClientRequest } from './caller.js';

const SCOPE_KEY = 'tickwheel:scope';

/**
 * The scope a route needs (README "Tenancy and scopes"); enforced by {@link ScopeGuard}, shown in Swagger
 * (`x-required-scope` and the 403 answer).
 */
export const RequireScope = (scope: Scope) =>
  applyDecorators(
    SetMetadata(SCOPE_KEY, scope),
    ApiExtension('x-required-scope', scope),
    ApiProblem(403, `The caller lacks the scope ${scope} (code FORBIDDEN; \`scope\` names it).`),
  );

/** The scope `@RequireScope` put on a route (its handler, else its controller), if any. */
export function requiredScope(reflector: Reflector, context: ExecutionContext): Scope | undefined {
  return reflector.getAllAndOverride<Scope | undefined>(SCOPE_KEY, [context.getHandler(), context.getClass()]);
}

/**
 * Authorization of signed requests (docs/tenancy.md "Scopes and admin"): runs after the signing step, which sets
 * `req.appId` and `req.client`, and refuses with a 403 naming the scope a request whose client lacks the route's
 * `@RequireScope`. Fails closed: a signed route without the decorator needs `admin`. A route with a scope that
 * reaches here unsigned is a 401 (the signing step did not run for it).
 */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const scope = requiredScope(this.reflector, context);
    const caller = callerOf(context.switchToHttp().getRequest<ClientRequest>());
    if (!caller) {
      if (scope === undefined) return true; // not a signed route: /health, /metrics, /docs
      throw new SchedulerError(ErrorCode.UNAUTHORIZED, 'missing or invalid request signature');
    }
    requireScope(caller, scope ?? Scope.ADMIN);
    return true;
  }
}
