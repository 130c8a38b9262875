import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, type SelectQueryBuilder } from 'typeorm';
import { cutText, newId } from '../../../common/index.js';
import { Notification, type NotificationKind, type NotificationState } from '../entities/index.js';
import { insertIgnoreVerb, marks, runStatement } from './raw-statement.js';

/** A message due to close, as the closer's SELECT returns it. */
export interface DueMessage {
  id: string;
  appId: string;
  sendAt: number;
}

/** Which messages a list reads: of `namespace`, of app `appId` (null: every app), and the filters given. */
export interface NotificationFilter {
  namespace: string;
  appId: string | null;
  state?: NotificationState;
  kind?: NotificationKind;
  rule?: string;
}

/** The columns of the close's INSERT IGNORE of delivery rows. */
const DELIVERY_COLUMNS = [
  'id',
  'namespace',
  'app_id',
  'notification_id',
  'channel_index',
  'channel_type',
  'target',
  'state',
  'attempts',
  'next_attempt_at',
  'last_error',
  'created_at',
  'updated_at',
];

/** notification_delivery.target's length. */
const TARGET_MAX = 2048;

/**
 * The closing side of the notification outbox (docs/notifications.md "Delivery"): due OPEN messages, the per-app
 * count the rate limit reads, the close (OPEN → SENT plus one `notification_delivery` per channel, in the caller's
 * transaction) and the list read of GET /api/notifications.
 */
@Injectable()
export class NotificationOutboxRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Up to `limit` OPEN messages of `namespace` with `send_at <= now`, due first. */
  async dueMessages(namespace: string, now: number, limit: number): Promise<DueMessage[]> {
    const sql =
      'SELECT id, app_id, send_at FROM notification WHERE namespace = ? AND state = ? AND send_at <= ?' +
      ` ORDER BY send_at LIMIT ${Math.max(1, Math.floor(limit))}`;
    const rows = (await this.ds.query(sql, [namespace, 'OPEN', now])) as Array<Record<string, unknown>>;
    return rows.map((r) => ({ id: String(r.id), appId: String(r.app_id), sendAt: Number(r.send_at) }));
  }

  /**
   * How many messages of app `appId` were SENT after `since` (epoch ms), and the earliest such `sent_at`
   * (null when none): the rate limit's window (docs/notifications.md "Rate limit").
   */
  async sentSince(namespace: string, appId: string, since: number): Promise<{ count: number; oldest: number | null }> {
    const sql =
      'SELECT COUNT(*) AS n, MIN(sent_at) AS oldest FROM notification WHERE namespace = ? AND app_id = ?' +
      ' AND state = ? AND sent_at > ?';
    const rows = (await this.ds.query(sql, [namespace, appId, 'SENT', since])) as Array<Record<string, unknown>>;
    const oldest = rows[0]?.oldest;
    return { count: Number(rows[0]?.n ?? 0), oldest: oldest === null || oldest === undefined ? null : Number(oldest) };
  }

  /** Moves OPEN message `id`'s `send_at` to `sendAt` (later only); it keeps collecting events. @returns whether. */
  async postpone(id: string, sendAt: number, now: number): Promise<boolean> {
    const sql = 'UPDATE notification SET send_at = ?, updated_at = ? WHERE id = ? AND state = ? AND send_at < ?';
    return Number((await runStatement(this.ds, undefined, sql, [sendAt, now, id, 'OPEN', sendAt])).affected) > 0;
  }

  /**
   * Closes OPEN message `id` inside `em`: state SENT, `open_key` NULL, `sent_at = now`, guarded by `state = 'OPEN'`
   * so of two closers one wins; the winner writes one PENDING delivery per channel (INSERT IGNORE on the unique
   * (notification_id, channel_index)); a channel that cannot be sent (bad stored value) gets a FAILED row
   * (`BAD_CHANNEL: …`). @returns the message as closed, null when another closer won (nothing written).
   */
  async close(em: EntityManager, id: string, now: number): Promise<Notification | null> {
    const sql =
      'UPDATE notification SET state = ?, open_key = NULL, sent_at = ?, updated_at = ? WHERE id = ? AND state = ?';
    const res = await runStatement(this.ds, em, sql, ['SENT', now, now, id, 'OPEN']);
    if (!res.affected) return null;
    const msg = await em.getRepository(Notification).findOneByOrFail({ id });
    const rows = storedChannels(msg.channels).map((c, i) => this.deliveryRow(msg, c, i, now));
    if (rows.length > 0) {
      const insert =
        `${insertIgnoreVerb(this.ds)} INTO notification_delivery (${DELIVERY_COLUMNS.join(', ')}) VALUES ` +
        rows.map(() => `(${marks(DELIVERY_COLUMNS.length)})`).join(', ');
      await runStatement(this.ds, em, insert, rows.flat());
    }
    return msg;
  }

  /** The values of message `msg`'s delivery to channel `c` (its `index`-th), due `now`. */
  private deliveryRow(msg: Notification, c: unknown, index: number, now: number): unknown[] {
    const { type, target, error } = channelTarget(c);
    const state = error === null ? 'PENDING' : 'FAILED';
    return [newId(), msg.namespace, msg.appId, msg.id, index, type, target, state, 0, now, error, now, now];
  }

  /**
   * Messages matching `f`, newest created first then by id: `limit` of them after skipping `offset`, or after
   * `after` (keyset); for one app from ix_notification_app (namespace, app_id, created_at).
   */
  async listPage(
    f: NotificationFilter,
    offset: number,
    limit: number,
    after?: { createdAt: number; id: string },
  ): Promise<Notification[]> {
    const qb = this.filtered(f);
    if (after)
      qb.andWhere('(n.createdAt < :ac OR (n.createdAt = :ac AND n.id < :ai))', { ac: after.createdAt, ai: after.id });
    return qb.orderBy('n.createdAt', 'DESC').addOrderBy('n.id', 'DESC').offset(offset).limit(limit).getMany();
  }

  /** How many messages match `f` (every page). */
  countPage(f: NotificationFilter): Promise<number> {
    return this.filtered(f).getCount();
  }

  /** A SELECT of the messages `f` names (alias n). */
  private filtered(f: NotificationFilter): SelectQueryBuilder<Notification> {
    const qb = this.ds.getRepository(Notification).createQueryBuilder('n').where('n.namespace = :ns', {
      ns: f.namespace,
    });
    if (f.appId !== null) qb.andWhere('n.appId = :app', { app: f.appId });
    if (f.state !== undefined) qb.andWhere('n.state = :state', { state: f.state });
    if (f.kind !== undefined) qb.andWhere('n.kind = :kind', { kind: f.kind });
    if (f.rule !== undefined) qb.andWhere('n.ruleName = :rule', { rule: f.rule });
    return qb;
  }
}

/** A message's stored channels as the close writes them: at most 100; an unreadable list is one bad channel. */
export function storedChannels(channels: unknown): unknown[] {
  return Array.isArray(channels) ? channels.slice(0, 100) : [{ bad: 'channels is not a JSON list' }];
}

/**
 * The `channel_type` and `target` of a stored channel (a URL; e-mail addresses comma-separated), or why it cannot
 * be sent (`error`, then the row is written FAILED).
 */
export function channelTarget(c: unknown): { type: string; target: string; error: string | null } {
  const ch = (c ?? {}) as { type?: unknown; url?: unknown; to?: unknown };
  if ((ch.type === 'webhook' || ch.type === 'chat') && typeof ch.url === 'string' && ch.url.length <= TARGET_MAX)
    return { type: ch.type, target: ch.url, error: null };
  if (ch.type === 'email' && Array.isArray(ch.to) && ch.to.length > 0 && ch.to.every((a) => typeof a === 'string')) {
    const target = (ch.to as string[]).join(',');
    if (target.length <= TARGET_MAX) return { type: 'email', target, error: null };
  }
  const type = typeof ch.type === 'string' ? ch.type.slice(0, 16) : 'unknown';
  return {
    type,
    target: '',
    error: cutText(`BAD_CHANNEL: not a channel that can be sent: ${JSON.stringify(c)}`, 1024),
  };
}
