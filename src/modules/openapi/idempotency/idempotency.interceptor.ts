import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CallHandler, ExecutionContext, Inject, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { catchError, from, mergeMap, type Observable, of } from 'rxjs';
import { CLOCK, type Clock, ErrorCode, SchedulerError, ValidationError } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { IdempotencyKeyRepository, type KeyClaim, type StoredAnswer } from '../../metadata/index.js';
import type { SignedRequest } from '../auth/signed-request.middleware.js';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_REPLAYED_HEADER,
  KEYED_ROUTES,
  parseIdempotencyKey,
  routeOf,
  UNKEYED_ROUTES,
} from './idempotency-routes.js';

/** Longest a duplicate waits for the first request with its key to answer, ms; then a 409 IDEMPOTENCY_IN_PROGRESS. */
export const IDEMPOTENCY_WAIT_MS = 10_000;
/** How often a waiting duplicate reads the key's row again, ms. */
const POLL_MS = 50;
/**
 * A key RUNNING this long is taken to be abandoned (its node died mid-request, or its answer could not be
 * stored) and the next request with it runs the route: well above Node's default request timeout (300 s).
 */
export const IDEMPOTENCY_ABANDONED_MS = 600_000;
/** Answer headers a route may set that belong to its answer (and so are replayed); none of today's routes sets one. */
const KEPT_HEADERS = ['location', 'content-location', 'link', 'deprecation', 'sunset'];

type Begun = { run: KeyClaim } | { replay: StoredAnswer };

/**
 * Idempotency-Key on the {@link KEYED_ROUTES} (docs/api.md "Idempotency"; draft-ietf-httpapi-idempotency-key-header).
 * Runs after the signature and scope guards, before the validation pipe. The first request with a key takes it
 * (one INSERT, unique per namespace, app and key: of concurrent duplicates only one runs the route) and its 2xx
 * answer is stored in MySQL/SQLite; the same key with the same request (method, path with query, the SHA-256 of
 * the body's signed bytes) replays that answer with `Idempotency-Replayed: true` and runs nothing. A duplicate
 * that arrives while the first still runs waits up to {@link IDEMPOTENCY_WAIT_MS}, then replays, or answers 409
 * IDEMPOTENCY_IN_PROGRESS with Retry-After. The same key with another request is 409 IDEMPOTENCY_KEY_REUSED. An
 * error answer (4xx: nothing changed; 5xx: unknown) releases the key, so a retry runs again. Without the header
 * a route runs as it always did.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly logger = new Logger(IdempotencyInterceptor.name);

  constructor(
    private readonly keys: IdempotencyKeyRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  intercept(ctx: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (ctx.getType() !== 'http') return next.handle();
    const req = ctx.switchToHttp().getRequest<SignedRequest>();
    const raw = req.headersDistinct[IDEMPOTENCY_KEY_HEADER.toLowerCase()]; // one value per header line
    if (raw === undefined) return next.handle();
    const route = routeOf(req.method, ctx.getClass(), ctx.getHandler());
    const refusal = UNKEYED_ROUTES.get(route);
    if (refusal) throw new ValidationError(IDEMPOTENCY_KEY_HEADER, refusal);
    if (!KEYED_ROUTES.has(route) || !req.appId) return next.handle();
    const res = ctx.switchToHttp().getResponse<Response>();
    const claim = this.claimOf(req, parseIdempotencyKey(raw));
    return from(this.begin(claim, res)).pipe(
      mergeMap((begun) => ('replay' in begun ? of(replay(res, begun.replay)) : this.run(next, res, begun.run))),
    );
  }

  /** The claim of this request on its key: the app's key, the request's fingerprint, a fresh owner token. */
  private claimOf(req: SignedRequest, idemKey: string): KeyClaim {
    const fingerprint = createHash('sha256')
      .update(`${req.method.toUpperCase()}\n${req.originalUrl}\n${req.bodySha256Hex ?? ''}`)
      .digest('hex');
    const now = this.clock.now();
    return {
      namespace: this.config.namespace,
      appId: req.appId,
      idemKey,
      fingerprint,
      request: `${req.method.toUpperCase()} ${req.originalUrl}`,
      owner: randomUUID(),
      now,
      expiresAt: now + this.config.idempotencyKeyTtlMs,
    };
  }

  /**
   * Takes the key, or finds the answer to replay, waiting for a running first request.
   * @throws SchedulerError(IDEMPOTENCY_KEY_REUSED | IDEMPOTENCY_IN_PROGRESS), field Idempotency-Key.
   */
  private async begin(claim: KeyClaim, res: Response): Promise<Begun> {
    const waitUntil = performance.now() + IDEMPOTENCY_WAIT_MS;
    for (let first = true; ; first = false) {
      if (!first) await sleep(POLL_MS);
      claim.now = this.clock.now();
      claim.expiresAt = claim.now + this.config.idempotencyKeyTtlMs;
      if (first) await this.checkRoom(claim, res);
      if (await this.keys.insert(claim)) return { run: claim };
      const row = await this.keys.find(claim.namespace, claim.appId, claim.idemKey);
      if (!row) continue; // released between the insert and the read: try again
      const gone = row.expiresAt <= claim.now;
      const abandoned = row.state === 'RUNNING' && claim.now - row.startedAt > IDEMPOTENCY_ABANDONED_MS;
      if (gone || abandoned) {
        if (await this.keys.takeOver(claim, row.owner)) return { run: claim };
        continue;
      }
      if (row.fingerprint !== claim.fingerprint) {
        throw new SchedulerError(
          ErrorCode.IDEMPOTENCY_KEY_REUSED,
          `this Idempotency-Key was used with another request (${row.request.slice(0, 200)}, or another body): ` +
            'use a new key for a new request',
          IDEMPOTENCY_KEY_HEADER,
        );
      }
      if (row.state === 'DONE') return { replay: storedAnswer(row) };
      if (performance.now() >= waitUntil) {
        res.setHeader('Retry-After', '1');
        throw new SchedulerError(
          ErrorCode.IDEMPOTENCY_IN_PROGRESS,
          `the first request with this Idempotency-Key is still running after ${IDEMPOTENCY_WAIT_MS} ms: retry later`,
          IDEMPOTENCY_KEY_HEADER,
        );
      }
    }
  }

  /**
   * A new key needs room: an app holds at most IDEMPOTENCY_KEYS_PER_APP (concurrent first requests may pass it by
   * a few). A key the app already holds (a replay) needs none.
   * @throws SchedulerError(TOO_MANY_IDEMPOTENCY_KEYS), a 429 with Retry-After.
   */
  private async checkRoom(claim: KeyClaim, res: Response): Promise<void> {
    const cap = this.config.idempotencyKeysPerApp;
    if ((await this.keys.countForApp(claim.namespace, claim.appId)) < cap) return;
    if (await this.keys.find(claim.namespace, claim.appId, claim.idemKey)) return;
    res.setHeader('Retry-After', '60');
    throw new SchedulerError(
      ErrorCode.TOO_MANY_IDEMPOTENCY_KEYS,
      `this app holds ${cap} Idempotency-Keys (IDEMPOTENCY_KEYS_PER_APP), each kept ` +
        `${this.config.idempotencyKeyTtlMs} ms: retry later, or send the request without a key`,
      IDEMPOTENCY_KEY_HEADER,
    );
  }

  /** Runs the route holding the key: a 2xx answer is stored, an error releases the key. */
  private run(next: CallHandler, res: Response, claim: KeyClaim): Observable<unknown> {
    return next.handle().pipe(
      mergeMap(async (value: unknown) => {
        await this.store(claim, res, value);
        return value;
      }),
      catchError(async (err: unknown) => {
        await this.keys.release(claim).catch((e: Error) => this.failed('release', claim, e));
        throw err;
      }),
    );
  }

  /** Stores the answer; a failure is logged (the key stays RUNNING until abandoned) and the answer still goes. */
  private async store(claim: KeyClaim, res: Response, value: unknown): Promise<void> {
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const v = res.getHeader(name);
      if (v !== undefined) headers[name] = String(v);
    }
    const body = value === undefined ? null : JSON.stringify(value);
    try {
      if (!(await this.keys.complete(claim, { status: res.statusCode, headers, body })))
        this.logger.warn(`Idempotency-Key of app '${claim.appId}' was taken over before its answer was stored`);
    } catch (err) {
      this.failed('store the answer of', claim, err as Error);
    }
  }

  private failed(what: string, claim: KeyClaim, err: Error): void {
    this.logger.error(`could not ${what} an Idempotency-Key of app '${claim.appId}': ${err.message}`);
  }
}

function storedAnswer(row: { status: number | null; headers: string | null; body: string | null }): StoredAnswer {
  return {
    status: row.status ?? 200,
    headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {},
    body: row.body,
  };
}

/** Writes a stored answer's status and headers on `res`; @returns its body for Nest to send. */
function replay(res: Response, answer: StoredAnswer): unknown {
  res.status(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  res.setHeader(IDEMPOTENCY_REPLAYED_HEADER, 'true');
  return answer.body === null ? undefined : JSON.parse(answer.body);
}
