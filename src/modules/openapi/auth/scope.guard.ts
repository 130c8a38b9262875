import { applyDecorators, CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiExtension } from '@nestjs/swagger';
import { ErrorCode, SchedulerError } from '../../../common/index.js';
import { Scope } from '../../metadata/index.js';
import { requireScope } from '../../jobs/index.js';
import { ApiProblem } from '../dto/problem.dto.js';
import { callerOf, type ClientRequest } from './caller.js';

const SCOPE_KEY = 'tickwheel:scope';
/** What {@link AnySignedCaller} puts where a scope would be: the signature is the whole requirement. */
const ANY_SIGNED = 'any-signed-caller';

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

/**
 * A signed route that any signed caller may use, whatever its scopes (GET /api/whoami): the explicit opposite of
 * the guard's fail-closed default. Shown in Swagger as `x-any-signed-caller: true`, without `x-required-scope`
 * and without a 403 answer (none can happen); an unsigned request is still a 401.
 */
export const AnySignedCaller = () =>
  applyDecorators(SetMetadata(SCOPE_KEY, ANY_SIGNED), ApiExtension('x-any-signed-caller', true));

/** The scope `@RequireScope` put on a route (its handler, else its controller), or ANY_SIGNED, if any. */
export function requiredScope(
  reflector: Reflector,
  context: ExecutionContext,
): Scope | typeof ANY_SIGNED | undefined {
  return reflector.getAllAndOverride<Scope | typeof ANY_SIGNED | undefined>(SCOPE_KEY, [
    context.getHandler(),
    context.getClass(),
  ]);
}

/**
 * Authorization of signed requests (docs/tenancy.md "Scopes and admin"): runs after the signing step, which sets
 * `req.appId` and `req.client`, and refuses with a 403 naming the scope a request whose client lacks the route's
 * `@RequireScope`. Fails closed: a signed route without the decorator needs `admin` (`@AnySignedCaller` lets any
 * signed caller in). A route with a scope that reaches here unsigned is a 401 (the signing step did not run for it).
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
    if (scope !== ANY_SIGNED) requireScope(caller, scope ?? Scope.ADMIN);
    return true;
  }
}
