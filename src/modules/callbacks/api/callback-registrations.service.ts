import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, ConflictError, MAX_CALLBACK_REGISTRATIONS, NotFoundError } from '../../../common/index.js';
import { AuditAction, AuditService, CallbackUrlCheck, type Caller, namedApp } from '../../jobs/index.js';
import {
  ApiClientRepository,
  CallbackRegistration,
  CallbackRegistrationRepository,
  UnitOfWork,
} from '../../metadata/index.js';

const target = (appId: string) => ({ type: 'callback_registration', id: appId });

/** A URL as audit rows keep it: without its query or fragment, which may carry a receiver's token. */
export function auditedUrl(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}${u.search || u.hash ? '?…' : ''}`;
}

/**
 * An app's callback registrations (docs/callbacks.md): its default (handler '') and one per handler, at most
 * MAX_CALLBACK_REGISTRATIONS; the caller's own app, or an admin's `appId` (namedApp). Audited in the same tx.
 */
@Injectable()
export class CallbackRegistrations {
  constructor(
    private readonly regs: CallbackRegistrationRepository,
    private readonly clients: ApiClientRepository,
    private readonly urls: CallbackUrlCheck,
    private readonly audit: AuditService,
    private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Sets the URL of `handler` (undefined: the app's default), inserting or replacing it.
   * @throws ValidationError(`url`) for a refused URL; ConflictError(`handler`) past the app's bound;
   *   NotFoundError for an admin's `appId` with no client; ForbiddenError(admin) for another app without it.
   */
  async register(caller: Caller, url: string, handler?: string, appId?: string): Promise<CallbackRegistration> {
    const owner = namedApp(caller, appId) as string;
    await this.urls.assert(owner, url, 'url');
    const key = handler ?? '';
    return this.uow.run(async (em) => {
      // The client row's lock serialises one app's registers, so the bound below is exact.
      const client = await this.clients.lockForUpdate(em, owner);
      if (!client && owner !== caller.appId) throw new NotFoundError('app', owner);
      const repo = em.getRepository(CallbackRegistration);
      const before = await repo.findOneBy({ appId: owner, handler: key });
      if (!before && (await repo.countBy({ appId: owner })) >= MAX_CALLBACK_REGISTRATIONS) {
        throw new ConflictError(
          `app '${owner}' has ${MAX_CALLBACK_REGISTRATIONS} callback registrations, the most it may hold: ` +
            'delete one (DELETE /api/callbacks?handler=…) or register one of the handlers it has',
          'handler',
        );
      }
      await this.regs.upsert(owner, key, url, this.clock.now(), em);
      const snapshot = (u: string) => ({ handler: key || null, url: auditedUrl(u) });
      await this.audit.record(
        em,
        caller.appId,
        AuditAction.CALLBACK_REGISTER,
        target(owner),
        before ? snapshot(before.url) : undefined,
        snapshot(url),
      );
      return (await repo.findOneBy({ appId: owner, handler: key })) as CallbackRegistration;
    });
  }

  /** The registrations of the caller's app (or an admin's `appId`), the default first, then by handler. */
  list(caller: Caller, appId?: string): Promise<CallbackRegistration[]> {
    return this.regs.listOf(namedApp(caller, appId) as string);
  }

  /** Removes `handler`'s registration (undefined: the default). @throws NotFoundError, ForbiddenError(admin). */
  async remove(caller: Caller, handler?: string, appId?: string): Promise<void> {
    const owner = namedApp(caller, appId) as string;
    const key = handler ?? '';
    await this.uow.run(async (em) => {
      const before = await em.getRepository(CallbackRegistration).findOneBy({ appId: owner, handler: key });
      if (!before || !(await this.regs.remove(owner, key, em))) {
        throw new NotFoundError('callback registration', handler ?? '(default)');
      }
      const snapshot = { handler: key || null, url: auditedUrl(before.url) };
      await this.audit.record(em, caller.appId, AuditAction.CALLBACK_DELETE, target(owner), snapshot);
    });
  }
}
