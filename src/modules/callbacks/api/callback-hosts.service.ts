import { Inject, Injectable } from '@nestjs/common';
import {
  CLOCK,
  type Clock,
  MAX_REDELIVER_BY_HOST,
  MAX_REDELIVER_SINCE_MS,
  NotFoundError,
  ValidationError,
} from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { AuditAction, AuditService, type Caller, namedApp } from '../../jobs/index.js';
import {
  ApiClientRepository,
  CallbackHost,
  CallbackHostDeliveries,
  CallbackHostRepository,
  UnitOfWork,
} from '../../metadata/index.js';

/** How far ahead of this clock a `since` may be (the caller's clock may run ahead). */
const SKEW_MS = 60_000;

/**
 * An app's receiving hosts behind the API (docs/callbacks.md "Hosts marked down", "Redeliver"): their state, and
 * redeliver by host; the caller's own app, or an admin's `appId` (namedApp).
 */
@Injectable()
export class CallbackHosts {
  constructor(
    private readonly hosts: CallbackHostRepository,
    private readonly waiting: CallbackHostDeliveries,
    private readonly clients: ApiClientRepository,
    private readonly audit: AuditService,
    private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A page of the app's hosts (the down ones first) and how many in all. @throws ForbiddenError(admin). */
  list(caller: Caller, appId: string | undefined, offset: number, limit: number): Promise<[CallbackHost[], number]> {
    return this.hosts.listOf(this.config.namespace, namedApp(caller, appId) as string, offset, limit);
  }

  /**
   * Redelivers (PENDING, no tries, due now, the same deliveryId) at most MAX_REDELIVER_BY_HOST of the app's
   * CALLBACK_FAILED deliveries to `host` that failed at or after `since` (epoch ms), oldest first, and brings the
   * host up for the app (the caller says it is back), with one audit row, in one transaction.
   * @returns how many were redelivered and whether more match (call again).
   * @throws ValidationError(since) more than MAX_REDELIVER_SINCE_MS back or over a minute ahead; ForbiddenError(admin);
   *   NotFoundError for an admin's `appId` with no client.
   */
  async redeliver(
    caller: Caller,
    appId: string | undefined,
    host: string,
    since: number,
  ): Promise<{ redelivered: number; more: boolean }> {
    const owner = namedApp(caller, appId) as string;
    const now = this.clock.now();
    if (since < now - MAX_REDELIVER_SINCE_MS)
      throw new ValidationError('since', `since must be at most ${MAX_REDELIVER_SINCE_MS / 86_400_000} days back`);
    if (since > now + SKEW_MS) throw new ValidationError('since', 'since must not be in the future');
    if (owner !== caller.appId && !(await this.clients.findByAppId(owner))) throw new NotFoundError('app', owner);
    const key = { namespace: this.config.namespace, appId: owner, host };
    return this.uow.run(async (em) => {
      const before = await em.getRepository(CallbackHost).findOneBy(key);
      const done = await this.waiting.redeliverFailedSince(em, key, since, MAX_REDELIVER_BY_HOST, now);
      if (await this.hosts.recordAlive(key, now, em)) await this.waiting.dueNow(key, now, em);
      await this.audit.record(
        em,
        caller.appId,
        AuditAction.CALLBACK_REDELIVER_HOST,
        { type: 'callback_host', id: owner },
        { host, down: before?.downSince != null, consecutiveFailures: before?.consecutiveFailures ?? 0 },
        { host, since: new Date(since).toISOString(), ...done },
      );
      return done;
    });
  }
}
