import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import type { OpenAPIObject } from '@nestjs/swagger';
import { Observable } from 'rxjs';
import { ValidationError } from '../../../common/index.js';
import { wasVerified } from '../auth/signed-request.middleware.js';
import { problemContent } from '../dto/problem.dto.js';

/** The 400 a route without query parameters answers to one (added to its OpenAPI operation). */
const NO_QUERY_400 = 'A query parameter this route does not take (code VALIDATION; `field` names it).';

/**
 * Refuses any query parameter on a signed /api route that declares none (no `@Query()` argument), with a 400 naming
 * the first one: routes with a query DTO refuse unknown ones in the validation pipe (whitelist,
 * forbidNonWhitelisted), and a route without one ignored them (`POST /api/tasks?appId=x` ran as if for the caller).
 * Runs after the guards and before the Idempotency-Key is taken and the pipes run. Other routes (health, metrics,
 * the console) are left alone.
 */
@Injectable()
export class QueryParamsInterceptor implements NestInterceptor {
  /** Per handler: whether it takes a `@Query()` argument (route metadata does not change after start). */
  private readonly takesQuery = new WeakMap<object, boolean>();

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<{ query?: Record<string, unknown> }>();
    if (wasVerified(req) && !this.declaresQuery(context)) {
      const [extra] = Object.keys(req.query ?? {});
      if (extra !== undefined) {
        const field = extra.slice(0, 100) || 'query';
        throw new ValidationError(field, `property ${field} should not exist`);
      }
    }
    return next.handle();
  }

  private declaresQuery(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    let known = this.takesQuery.get(handler);
    if (known === undefined) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ?? {}) as object;
      known = Object.keys(args).some((key) => key.startsWith(`${RouteParamtypes.QUERY}:`));
      this.takesQuery.set(handler, known);
    }
    return known;
  }
}

/**
 * Documents the 400 of {@link QueryParamsInterceptor} on every /api operation of `doc` (in place) that declares no
 * query parameter: its own 400 text gets the case added, or it gets one. Called by buildOpenApiDocument.
 */
export function documentNoQuery(doc: OpenAPIObject): void {
  type Operation = { parameters?: Array<{ in?: string }>; responses: Record<string, { description?: string }> };
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/api/')) continue;
    for (const op of Object.values(item as Record<string, Operation>)) {
      if (!op?.responses || (op.parameters ?? []).some((p) => p.in === 'query')) continue;
      const own = op.responses['400']?.description;
      if (own?.includes(NO_QUERY_400)) continue;
      op.responses['400'] = {
        ...(op.responses['400'] ?? { content: problemContent() }),
        description: own ? `${own} Or: ${NO_QUERY_400}` : NO_QUERY_400,
      };
    }
  }
}
