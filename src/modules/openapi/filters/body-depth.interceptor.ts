import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable } from 'rxjs';
import { ValidationError } from '../../../common/index.js';

/** Deepest nesting of arrays/objects a request body may have. */
export const MAX_BODY_DEPTH = 64;

/**
 * Refuses bodies nested deeper than {@link MAX_BODY_DEPTH} with a 400 naming the top-level field, before
 * the validation pipe's recursive transform would overflow the stack (a 500). Runs after the signature
 * guard and before pipes; the walk itself is iterative.
 */
@Injectable()
export class BodyDepthInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const body = context.switchToHttp().getRequest<{ body?: unknown }>().body;
    const field = tooDeep(body);
    if (field !== null) throw new ValidationError(field, `${field} is nested deeper than ${MAX_BODY_DEPTH} levels`);
    return next.handle();
  }
}

/** The top-level key under which `value` exceeds the depth limit, '(body)' for the root, or null. */
export function tooDeep(value: unknown): string | null {
  if (!value || typeof value !== 'object') return null;
  const stack: Array<{ v: unknown; depth: number; top: string }> = Object.entries(value as object).map(([k, v]) => ({ v, depth: 1, top: k }));
  while (stack.length > 0) {
    const { v, depth, top } = stack.pop() as { v: unknown; depth: number; top: string };
    if (!v || typeof v !== 'object') continue;
    if (depth >= MAX_BODY_DEPTH) return top;
    for (const child of Object.values(v as object)) stack.push({ v: child, depth: depth + 1, top });
  }
  return null;
}
