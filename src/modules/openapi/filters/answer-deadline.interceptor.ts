import { CallHandler, ExecutionContext, Inject, Injectable, NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { StorageUnavailableError } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { recentStorageFault } from './storage-fault.js';

const WAITS = 'tickwheel:answerWaits';

/** Marks a long poll: the body field (ms) it may wait besides its storage work, e.g. a claim's `waitMs`. */
export const AnswerWaits = (bodyField: string) => SetMetadata(WAITS, bodyField);

/**
 * The backstop of "an answer within 2 × STORAGE_TIMEOUT_MS" (docs/deploy.md "When MySQL or Redis cannot be
 * reached"): each statement and command is cut at STORAGE_TIMEOUT_MS, but a route may run several, and retries
 * of best-effort steps add up. A route still running at 2 × STORAGE_TIMEOUT_MS (plus its long-poll wait) while a
 * store failed meanwhile answers 503 STORAGE_UNAVAILABLE naming it; its work goes on unheard (a write may
 * commit: a resend with the same requestId replays it). A slow route while both stores answer is left alone.
 */
@Injectable()
export class AnswerDeadlineInterceptor implements NestInterceptor {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly reflector: Reflector,
  ) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const field = this.reflector.get<string | undefined>(WAITS, ctx.getHandler());
    const waits = field ? Number(ctx.switchToHttp().getRequest<Request>().body?.[field]) || 0 : 0;
    const window = 2 * this.config.storageTimeoutMs;
    const started = Date.now();
    return new Observable((subscriber) => {
      const inner = next.handle().subscribe({
        next: (value) => subscriber.next(value),
        error: (err: unknown) => subscriber.error(err),
        complete: () => subscriber.complete(),
      });
      let timer: NodeJS.Timeout;
      const check = () => {
        // A fault while the route ran, or up to STORAGE_TIMEOUT_MS before it began.
        const storage = recentStorageFault(Date.now() - started + this.config.storageTimeoutMs);
        if (!storage) return void (timer = setTimeout(check, 500));
        inner.unsubscribe();
        subscriber.error(new StorageUnavailableError(storage));
      };
      timer = setTimeout(check, window + waits);
      return () => {
        clearTimeout(timer);
        inner.unsubscribe();
      };
    });
  }
}
