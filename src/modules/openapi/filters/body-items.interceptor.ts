import { CallHandler, ExecutionContext, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Observable } from 'rxjs';
import { ValidationError } from '../../../common/index.js';

const BODY_ITEMS = 'tickwheel:body-items';

/**
 * Most items each named top-level array of the route's JSON body may hold, e.g. `@MaxBodyItems({ tasks: 1000 })`.
 * Checked by {@link BodyItemsInterceptor} on the parsed body, before the validation pipe turns every item into
 * an object and validates it (100,000 items blocked the event loop for seconds before ArrayMaxSize refused them).
 */
export const MaxBodyItems = (limits: Record<string, number>) => SetMetadata(BODY_ITEMS, limits);

/**
 * Refuses a body whose array named in the route's {@link MaxBodyItems} is longer than its limit, with a 400
 * naming that field. Runs after the signature guard and before pipes; reads only `req.body`, whoever parsed it.
 */
@Injectable()
export class BodyItemsInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const limits = this.reflector.get<Record<string, number> | undefined>(BODY_ITEMS, context.getHandler());
    if (limits) {
      const body = context.switchToHttp().getRequest<{ body?: unknown }>().body;
      for (const [field, max] of Object.entries(limits)) {
        const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
        if (Array.isArray(value) && value.length > max) {
          throw new ValidationError(field, `${field} must contain no more than ${max} elements (got ${value.length})`);
        }
      }
    }
    return next.handle();
  }
}
