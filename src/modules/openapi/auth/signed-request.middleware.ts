import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import {
  bodySha256Hex,
  CLOCK,
  type Clock,
  ErrorCode,
  parseSignature,
  SchedulerError,
  SIGNATURE_HEADERS as H,
  signatureHex,
  signaturesEqual,
} from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { NONCES, type NoncePort } from '../../coordination/index.js';
import { sendProblem } from '../filters/problem-details.filter.js';
import { ApiClientService, type ResolvedClient } from './api-client.service.js';
import { RateLimiter } from './rate-limiter.js';
import {
  announcedBodyFits,
  announcesBody,
  checkBodyHeaders,
  checkReadBody,
  ClientGoneError,
  closeAfterAnswer,
  parseJsonBody,
  readBody,
  type ReadBody,
} from './request-body.js';

/**
 * How much longer than twice the signature window a nonce is remembered. A timestamp at the window's future
 * edge stays acceptable for 2 × the window on the node that saw it, and for as long again as another API
 * node's clock is behind: a replay there must still find the nonce (clocks up to 60 s apart).
 */
export const NONCE_SKEW_MARGIN_MS = 60_000;

/** A request that passed the signature check carries its caller: app id and resolved client (scopes, limits). */
export interface SignedRequest extends Request {
  appId: string;
  client: ResolvedClient;
  /** Hex SHA-256 of the body's bytes as signed (of '' for none): part of an Idempotency-Key's request. */
  bodySha256Hex: string;
}

/** The one detail of every 401: it never says which part of the signature failed. */
export const UNAUTHORIZED_DETAIL = 'missing or invalid request signature';

const NONCE = /^[A-Za-z0-9_-]{8,128}$/;
const EMPTY_BODY: ReadBody = { bytes: Buffer.alloc(0), sha256Hex: bodySha256Hex('') };

/** Requests this middleware let through (a property a client could never set; read by the SignatureGuard). */
const verified = new WeakSet<object>();

/** True when `req` passed {@link SignedRequestMiddleware}. */
export function wasVerified(req: object): boolean {
  return verified.has(req);
}

/**
 * True for a path under `/api`, in any letter case (Express matches routes case-insensitively). Takes
 * Express's `req.path`, the pathname it routes by (also of an absolute-form target, `POST http://h/api/…`).
 */
export function isApiPath(path: string): boolean {
  return /^\/api(\/|$)/i.test(path);
}

/** The four signature headers of a request, checked for form (not yet for truth). */
interface SignatureHeaders {
  appId: string;
  timestampMs: string;
  nonce: string;
  hex: string;
}

/**
 * Authenticates every /api request before its body is read or parsed (README "Signing"),
 * in this order: the whole header set (present, well-formed, a v2 signature, a timestamp within
 * ±SIGNATURE_WINDOW_MS), the client (exact id; unknown → 401 without reading the body), the body's
 * headers (JSON, not encoded, at most 2 MiB: 415 / 413); then the body is read with a 2 MiB cap and
 * hashed as it streams, the HMAC is checked in constant time, the nonce is spent (once per exact app id,
 * only after the signature matched, so nobody can burn another app's nonces), one token of the app's rate
 * limit is taken (README "Rate limits"), and only then is the body parsed into `req.body` (depth ≤ 64).
 * Every signature failure is the same 401 (the reason is logged at debug level: LOG_LEVEL=debug). A
 * refusal whose body was left unread and may be large closes the connection, so it is never read.
 */
@Injectable()
export class SignedRequestMiddleware {
  private readonly logger = new Logger(SignedRequestMiddleware.name);

  constructor(
    private readonly clients: ApiClientService,
    private readonly rateLimiter: RateLimiter,
    @Inject(NONCES) private readonly coordination: NoncePort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The Express middleware function (`app.use(middleware.handle)`). */
  readonly handle = (req: Request, res: Response, next: NextFunction): void => {
    if (!isApiPath(req.path)) return next();
    const state = { bodyRead: !announcesBody(req) };
    this.authenticate(req as SignedRequest, res, state).then(
      () => next(),
      (err: unknown) => this.refuse(req, res, err, state.bodyRead),
    );
  };

  private async authenticate(req: SignedRequest, res: Response, state: { bodyRead: boolean }): Promise<void> {
    const h = this.signatureHeaders(req);
    const client = await this.clients.lookup(h.appId);
    if (!client) throw this.unauthorized(req, h.appId, 'no such app');
    checkBodyHeaders(req);
    const body = state.bodyRead ? EMPTY_BODY : await readBody(req);
    state.bodyRead = true;
    checkReadBody(req, body);
    const expected = signatureHex(
      client.secret,
      { appId: h.appId, method: req.method, pathAndQuery: req.originalUrl, timestampMs: h.timestampMs, nonce: h.nonce },
      body.sha256Hex,
    );
    if (!signaturesEqual(expected, h.hex))
      throw this.unauthorized(
        req,
        h.appId,
        'signature does not match (wrong secret, or the app id, method, path, body or headers changed on the way)',
      );
    // The nonce is spent and, for a new one, the app's token taken in one round trip (NoncePort.admitRequest).
    const bucket = this.rateLimiter.bucketOf(client);
    const ttlMs = 2 * this.config.signatureWindowMs + NONCE_SKEW_MARGIN_MS;
    const admission = await this.coordination.admitRequest(client.appId, h.nonce, ttlMs, bucket);
    if (!admission.nonceAccepted) throw this.unauthorized(req, h.appId, 'nonce already used (a replay)');
    if (bucket && admission.take) this.rateLimiter.answer(client, bucket, admission.take, res);
    req.body = parseJsonBody(body.bytes);
    req.appId = client.appId;
    req.client = client;
    req.bodySha256Hex = body.sha256Hex;
    verified.add(req);
  }

  /** The signature headers, each checked for form, and the timestamp for the window. @throws the 401. */
  private signatureHeaders(req: Request): SignatureHeaders {
    const [appId, timestampMs, nonce, signature] = [H.appId, H.timestamp, H.nonce, H.signature].map((name) =>
      header(req, name),
    );
    const refuse = (why: string) => this.unauthorized(req, appId ?? '', why);
    if (!appId || !timestampMs || !nonce || !signature) {
      throw refuse(
        `missing ${[
          [H.appId, appId],
          [H.timestamp, timestampMs],
          [H.nonce, nonce],
          [H.signature, signature],
        ]
          .filter(([, v]) => !v)
          .map(([n]) => n)
          .join(', ')}`,
      );
    }
    if (!/^\d{1,16}$/.test(timestampMs) || !NONCE.test(nonce)) throw refuse('malformed timestamp or nonce');
    const parsed = parseSignature(signature);
    if (parsed.version === 'v1')
      throw refuse(`v1 signature: the app id was not signed; sign with v2, see README 'Signing'`);
    if (parsed.version !== 'v2') throw refuse(`X-Signature is not v2=<64 hex>; see README 'Signing'`);
    const skew = this.clock.now() - Number(timestampMs);
    const window = this.config.signatureWindowMs;
    if (Math.abs(skew) > window) throw refuse(`timestamp ${skew} ms from this server's clock (window ±${window} ms)`);
    return { appId, timestampMs, nonce, hex: parsed.hex };
  }

  /** The 401 of every signature failure; `why` goes to the debug log only. */
  private unauthorized(req: Request, appId: string, why: string): SchedulerError {
    this.logger.debug(
      `401 ${req.method} ${req.originalUrl.slice(0, 200)} from ${req.ip}, app '${appId.slice(0, 100)}': ${why}`,
    );
    return new SchedulerError(ErrorCode.UNAUTHORIZED, UNAUTHORIZED_DETAIL);
  }

  /**
   * Answers a refused request with the problem+json every route writes. A body left unread that is small
   * (a Content-Length within 2 MiB) is drained by Node, cheaply (no hash, no parse); one that may be larger
   * is never read: the connection closes after the answer.
   */
  private refuse(req: Request, res: Response, err: unknown, bodyRead: boolean): void {
    if (err instanceof ClientGoneError || res.headersSent) return;
    if (!bodyRead && !announcedBodyFits(req)) closeAfterAnswer(req, res);
    sendProblem(req, res, err);
  }
}

function header(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}
