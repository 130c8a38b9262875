import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import { Request } from 'express';
import { CLOCK, type Clock, ErrorCode, SchedulerError, SIGNATURE_HEADERS as H, signaturesEqual, signRequest } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { COORDINATION, type CoordinationPort } from '../../coordination/coordination.port.js';
import { ApiClientService, type ResolvedClient } from './api-client.service.js';

/** A request that passed the guard carries its caller: the app id and the resolved client (scopes, limits). */
export interface SignedRequest extends Request {
  appId: string;
  client: ResolvedClient;
  rawBody?: Buffer;
}

const NONCE = /^[A-Za-z0-9_-]{8,128}$/;

/**
 * HMAC-SHA256 request signing for every `/api` route (DESIGN §8): X-App-Id, X-Timestamp (epoch ms,
 * within ±SIGNATURE_WINDOW_MS), X-Nonce (accepted once per app within twice the window) and X-Signature
 * (hex HMAC of the canonical request, compared in constant time). Any failure is the same 401 with no
 * hint of which part failed (the reason is logged at debug level, for the operator: LOG_LEVEL=debug). The nonce is spent only after the signature checks, so nobody can burn
 * another app's nonces. A route is signed when its controller is mounted under `api` or the URL is
 * under `/api` in any letter case (Express matches routes case-insensitively, so `/API/jobs` reaches
 * the jobs controller and must not slip past the check).
 */
@Injectable()
export class SignatureGuard implements CanActivate {
  private readonly logger = new Logger(SignatureGuard.name);

  constructor(
    private readonly clients: ApiClientService,
    @Inject(COORDINATION) private readonly coordination: CoordinationPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<SignedRequest>();
    if (!this.isApiRoute(context, req)) return true;
    const appId = header(req, H.appId);
    const ts = header(req, H.timestamp);
    const nonce = header(req, H.nonce);
    const signature = header(req, H.signature);
    const refuse = (why: string) => {
      this.logger.debug(`401 ${req.method} ${req.originalUrl.slice(0, 200)} from ${req.ip}, app '${(appId ?? '').slice(0, 100)}': ${why}`);
      return unauthorized();
    };
    if (!appId || !ts || !nonce || !signature) throw refuse(`missing ${[[H.appId, appId], [H.timestamp, ts], [H.nonce, nonce], [H.signature, signature]].filter(([, v]) => !v).map(([h]) => h).join(', ')}`);
    if (!/^\d{1,16}$/.test(ts) || !NONCE.test(nonce)) throw refuse('malformed timestamp or nonce');
    const skew = this.clock.now() - Number(ts);
    if (Math.abs(skew) > this.config.signatureWindowMs) throw refuse(`timestamp ${skew} ms from this server's clock (window ±${this.config.signatureWindowMs} ms)`);
    const client = await this.clients.lookup(appId);
    if (!client) throw refuse('no such app');
    const expected = signRequest(client.secret, req.method, req.originalUrl, ts, nonce, req.rawBody ?? '');
    if (!signaturesEqual(expected, signature)) throw refuse('signature does not match (wrong secret, or the method, path, body or headers changed on the way)');
    if (!(await this.coordination.acceptNonce(appId, nonce, 2 * this.config.signatureWindowMs))) throw refuse('nonce already used (a replay)');
    req.appId = appId;
    req.client = client;
    return true;
  }

  /** True for a handler of a controller mounted under `api`, or a URL under `/api` (any case). */
  private isApiRoute(context: ExecutionContext, req: Request): boolean {
    const mounted = this.reflector.get<string | string[] | undefined>(PATH_METADATA, context.getClass()) ?? [];
    const underApi = (p: string) => /^\/?api(\/|$)/i.test(p);
    return (Array.isArray(mounted) ? mounted : [mounted]).some(underApi) || underApi(req.path);
  }
}

function header(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}

function unauthorized(): SchedulerError {
  return new SchedulerError(ErrorCode.UNAUTHORIZED, 'missing or invalid request signature');
}
