import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, ConflictError } from '../../../common/index.js';
import { APP_CONFIG, type AppConfig } from '../../../config/index.js';
import { AuditAction, AuditService, type Caller, namedApp } from '../../jobs/index.js';
import {
  CallbackDelivery,
  CallbackDeliveryRepository,
  CallbackState,
  type ListedDelivery,
  type JobInstance,
  redelivered,
  UnitOfWork,
} from '../../metadata/index.js';

/**
 * Delivery views and redeliver (docs/callbacks.md "Redeliver"), reached via an instance the caller found, and the
 * list of this namespace's deliveries the caller may see (its app's; an admin's, every app's or `appId`'s).
 */
@Injectable()
export class CallbackRedeliver {
  constructor(
    private readonly deliveries: CallbackDeliveryRepository,
    private readonly audit: AuditService,
    private readonly uow: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * `limit` deliveries (in `state`, when given) newest created first, after skipping `offset` or after `after`
   * (keyset), and how many match in all. @throws ForbiddenError(admin) when a non-admin names another app.
   */
  async list(
    caller: Caller,
    appId: string | undefined,
    state: CallbackState | undefined,
    page: { offset: number; limit: number; after?: { createdAt: number; id: string } },
  ): Promise<{ rows: ListedDelivery[]; total: number }> {
    const f = { namespace: this.config.namespace, appId: namedApp(caller, appId, true), state };
    const [rows, total] = await Promise.all([
      this.deliveries.listPage(f, page.offset, page.limit, page.after),
      this.deliveries.countPage(f),
    ]);
    return { rows, total };
  }

  /** The delivery of each of `instanceIds` that has one, by instance id: one query for a page of instances. */
  deliveriesOf(instanceIds: readonly string[]): Promise<Map<string, CallbackDelivery>> {
    if (instanceIds.length === 0) return Promise.resolve(new Map());
    return this.deliveries.findByInstances([...new Set(instanceIds)]);
  }

  /**
   * Sends the delivery of `instance` again from the start: PENDING, no tries, due now, the same deliveryId, with
   * its audit row in the same transaction. @returns the delivery as the reset wrote it (a sender may take it next).
   * @throws ConflictError when the instance has no delivery (not final yet, or no callback URL applied).
   */
  async redeliver(caller: Caller, instance: Pick<JobInstance, 'id' | 'status'>): Promise<CallbackDelivery> {
    const before = (await this.deliveriesOf([instance.id])).get(instance.id);
    if (!before) {
      throw new ConflictError(
        `instance '${instance.id}' (${instance.status}) has no callback delivery: it is not final yet, or no ` +
          'callback URL applied when it reached its final state',
      );
    }
    const now = this.clock.now();
    await this.uow.run(async (em) => {
      await this.deliveries.redeliver(before.id, now, em);
      await this.audit.record(
        em,
        caller.appId,
        AuditAction.CALLBACK_REDELIVER,
        { type: 'callback_delivery', id: before.id },
        { instanceId: instance.id, state: before.state, attempts: before.attempts },
        { instanceId: instance.id, state: CallbackState.PENDING, attempts: 0 },
      );
    });
    return Object.assign(new CallbackDelivery(), before, redelivered(now));
  }
}
