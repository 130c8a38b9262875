import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { GroupCommitter } from '../../../common/index.js';
import { UnitOfWork } from '../unit-of-work/unit-of-work.js';
import { Notification, NotificationDelivery } from '../entities/index.js';
import { marks, runStatement } from './raw-statement.js';

/** The columns a try's outcome writes (docs/notifications.md "Delivery"). */
export type NotificationDeliveryPatch = Partial<
  Pick<NotificationDelivery, 'state' | 'attempts' | 'nextAttemptAt' | 'lastStatusCode' | 'lastError' | 'deliveredAt'>
>;

/** A due delivery as the claim's candidate SELECT returns it. */
export interface DueNotificationDelivery {
  id: string;
  appId: string;
  channelType: string;
  target: string;
}

interface SettleItem {
  id: string;
  claim: string;
  patch: NotificationDeliveryPatch;
  now: number;
}

const DUE = ['PENDING', 'RETRYING'];

/**
 * The notification outbox's sending side (docs/notifications.md "Delivery"): due candidates, claims with a lease,
 * outcomes written only under their claim (group-committed), the waiting count and a page's deliveries.
 */
@Injectable()
export class NotificationDeliveryRepository {
  private readonly uow: UnitOfWork;
  private readonly settles = new GroupCommitter<SettleItem, boolean>((items) => this.settleGroup(items), 256);

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.uow = UnitOfWork.for(ds);
  }

  /** Up to `limit` due deliveries of `namespace` (PENDING or RETRYING, due, lease free or expired), due first. */
  async dueCandidates(
    namespace: string,
    now: number,
    limit: number,
    skipApps: readonly string[] = [],
  ): Promise<DueNotificationDelivery[]> {
    const skip = skipApps.length > 0 ? ` AND app_id NOT IN (${marks(skipApps.length)})` : '';
    const sql =
      'SELECT id, app_id, channel_type, target FROM notification_delivery WHERE namespace = ? AND state IN (?, ?)' +
      ` AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)${skip}` +
      ` ORDER BY next_attempt_at LIMIT ${Math.max(1, Math.floor(limit))}`;
    const rows = (await this.ds.query(sql, [namespace, ...DUE, now, now, ...skipApps])) as Array<
      Record<string, unknown>
    >;
    return rows.map((r) => ({
      id: String(r.id),
      appId: String(r.app_id),
      channelType: String(r.channel_type),
      target: String(r.target),
    }));
  }

  /**
   * Claims those of `ids` still due and free (one conditional UPDATE): `claim`, `lease_until = now + leaseMs`.
   * @returns the rows this claim holds, with their messages (null: the message is gone).
   */
  async claim(
    ids: readonly string[],
    claim: string,
    now: number,
    leaseMs: number,
  ): Promise<Array<{ row: NotificationDelivery; message: Notification | null }>> {
    if (ids.length === 0) return [];
    const sql =
      `UPDATE notification_delivery SET claim = ?, lease_until = ?, updated_at = ? WHERE id IN (${marks(ids.length)})` +
      ' AND state IN (?, ?) AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)';
    const res = await runStatement(this.ds, undefined, sql, [claim, now + leaseMs, now, ...ids, ...DUE, now, now]);
    if (!res.affected) return [];
    const rows = await this.ds.getRepository(NotificationDelivery).findBy({ claim });
    const ofIds = [...new Set(rows.map((r) => r.notificationId))];
    const messages = new Map(
      (await this.ds.getRepository(Notification).findBy({ id: In(ofIds) })).map((m) => [m.id, m] as const),
    );
    return rows.map((row) => ({ row, message: messages.get(row.notificationId) ?? null }));
  }

  /**
   * Writes a try's outcome over delivery `id` (group-committed) only while `claim` holds it; claim and lease are
   * dropped with it. @returns false when the claim was lost (nothing written).
   */
  settle(id: string, claim: string, patch: NotificationDeliveryPatch, now: number): Promise<boolean> {
    return this.settles.submit({ id, claim, patch, now });
  }

  private settleGroup(items: SettleItem[]): Promise<boolean[]> {
    return this.uow.run(async (em) => {
      const repo = em.getRepository(NotificationDelivery);
      const won: boolean[] = [];
      for (const { id, claim, patch, now } of items) {
        const res = await repo.update({ id, claim }, { ...patch, claim: null, leaseUntil: null, updatedAt: now });
        won.push((res.affected ?? 0) > 0);
      }
      return won;
    });
  }

  /** `namespace`'s deliveries waiting to be sent (PENDING, RETRYING). */
  async waiting(namespace: string): Promise<number> {
    const sql = 'SELECT COUNT(*) AS n FROM notification_delivery WHERE namespace = ? AND state IN (?, ?)';
    const rows = (await this.ds.query(sql, [namespace, ...DUE])) as Array<{ n: unknown }>;
    return Number(rows[0]?.n ?? 0);
  }

  /** The deliveries of `notificationIds` (one statement), by message id, in channel order. */
  async ofMessages(notificationIds: readonly string[]): Promise<Map<string, NotificationDelivery[]>> {
    const out = new Map<string, NotificationDelivery[]>();
    if (notificationIds.length === 0) return out;
    const rows = await this.ds
      .getRepository(NotificationDelivery)
      .find({ where: { notificationId: In([...notificationIds]) }, order: { channelIndex: 'ASC' } });
    for (const d of rows) out.set(d.notificationId, [...(out.get(d.notificationId) ?? []), d]);
    return out;
  }
}
