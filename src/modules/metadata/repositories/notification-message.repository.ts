import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { cutText, newId } from '../../../common/index.js';
import {
  Notification,
  type NotificationChannel,
  type NotificationEventSample,
  type NotificationKind,
} from '../entities/notification.entity.js';
import { insertIgnoreVerb, marks, runStatement } from './raw-statement.js';

/** Most events a message keeps as samples; `eventCount` counts them all. */
export const MESSAGE_SAMPLES = 20;

/** One event for a rule's message stream (docs/notifications.md "Quiet period and grouping"). Times epoch ms. */
export interface MessageEvent {
  namespace: string;
  appId: string;
  ruleId: string | null;
  ruleName: string;
  kind: NotificationKind;
  groupKey: string;
  title: string;
  channels: NotificationChannel[];
  quietMs: number;
  sample: NotificationEventSample;
  now: number;
}

const COLUMNS = [
  'id',
  'namespace',
  'app_id',
  'rule_id',
  'rule_name',
  'kind',
  'group_key',
  'open_key',
  'state',
  'title',
  'events',
  'event_count',
  'first_event_at',
  'last_event_at',
  'send_at',
  'channels',
  'created_at',
  'updated_at',
];

/** The key of a rule's open message for one group: one per (namespace, app, rule, group). */
export function openKeyOf(e: Pick<MessageEvent, 'namespace' | 'appId' | 'ruleName' | 'groupKey'>): string {
  return createHash('sha256').update(`${e.namespace}\n${e.appId}\n${e.ruleName}\n${e.groupKey}`).digest('hex');
}

/**
 * `notification` rows as the evaluator writes them: an event joins its group's OPEN message, or opens one due at
 * once, or, within the quiet period of the group's last message, due when that period ends. The sender closes
 * due messages (state SENT, open_key NULL) and writes their deliveries.
 */
@Injectable()
export class NotificationMessageRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Adds `e` to its group's message inside `em`. @returns the message id and whether this call opened it. */
  async add(em: EntityManager, e: MessageEvent): Promise<{ id: string; opened: boolean }> {
    const openKey = openKeyOf(e);
    for (let round = 0; round < 3; round++) {
      // After a lost race a plain read would see this transaction's snapshot again (MySQL REPEATABLE READ), where
      // the message a closer took meanwhile is still OPEN: every round would miss, and the event be dropped.
      const open =
        round === 0 ? await em.getRepository(Notification).findOneBy({ openKey }) : await currentOpen(em, openKey);
      if (open) {
        const events = open.events.length < MESSAGE_SAMPLES ? [...open.events, e.sample] : undefined;
        const sql =
          'UPDATE notification SET event_count = event_count + 1, last_event_at = ?, updated_at = ?' +
          `${events ? ', events = ?' : ''} WHERE id = ? AND state = 'OPEN'`;
        const params = events ? [e.now, e.now, JSON.stringify(events), open.id] : [e.now, e.now, open.id];
        if (Number((await runStatement(this.ds, em, sql, params)).affected ?? 0) > 0)
          return { id: open.id, opened: false };
        continue;
      }
      const id = newId();
      const sendAt = Math.max(e.now, ((await this.lastSendAt(em, e)) ?? -Infinity) + e.quietMs);
      const row = [
        ...[id, e.namespace, e.appId, e.ruleId, e.ruleName, e.kind, e.groupKey.slice(0, 300), openKey, 'OPEN'],
        ...[cutText(e.title, 300), JSON.stringify([e.sample]), 1, e.now, e.now, sendAt],
        ...[JSON.stringify(e.channels), e.now, e.now],
      ];
      const insert = `${insertIgnoreVerb(this.ds)} INTO notification (${COLUMNS.join(', ')})`;
      const sql = `${insert} VALUES (${marks(COLUMNS.length)})`;
      if (Number((await runStatement(this.ds, em, sql, row)).affected ?? 0) > 0) return { id, opened: true };
    }
    throw new Error(`notification group ${openKey} changed three times during one add`);
  }

  /** How many messages app `appId` has had opened since `since` (epoch ms), sent or not (ix_notification_app). */
  async countSince(namespace: string, appId: string, since: number): Promise<number> {
    const rows = (await this.ds.query(
      'SELECT COUNT(*) AS n FROM notification WHERE namespace = ? AND app_id = ? AND created_at >= ?',
      [namespace, appId, since],
    )) as { n: number | string }[];
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Deletes up to `limit` SENT messages of `namespace` due before `before` (epoch ms) whose deliveries are all
   * final, with those deliveries, in one transaction (docs/notifications.md "Reading notifications"). @returns the
   * messages deleted.
   */
  async purgeSent(namespace: string, before: number, limit: number): Promise<number> {
    const ids = (
      (await this.ds.query(
        "SELECT n.id FROM notification n WHERE n.namespace = ? AND n.state = 'SENT' AND n.send_at < ?" +
          ' AND NOT EXISTS (SELECT 1 FROM notification_delivery d WHERE d.notification_id = n.id' +
          " AND d.state IN ('PENDING', 'RETRYING')) LIMIT ?",
        [namespace, before, limit],
      )) as { id: string }[]
    ).map((r) => r.id);
    if (ids.length === 0) return 0;
    return this.ds.transaction(async (em) => {
      const list = marks(ids.length);
      await runStatement(this.ds, em, `DELETE FROM notification_delivery WHERE notification_id IN (${list})`, ids);
      const sql = `DELETE FROM notification WHERE id IN (${list}) AND state = 'SENT'`;
      return Number((await runStatement(this.ds, em, sql, ids)).affected ?? 0);
    });
  }

  /** When the group's newest message is (or was) due, or null when it has none. */
  private async lastSendAt(em: EntityManager, e: MessageEvent): Promise<number | null> {
    const rows = (await em.query(
      'SELECT send_at FROM notification WHERE namespace = ? AND app_id = ? AND rule_name = ? AND group_key = ?' +
        ' ORDER BY send_at DESC LIMIT 1',
      [e.namespace, e.appId, e.ruleName, e.groupKey.slice(0, 300)],
    )) as { send_at: string | number }[];
    return rows.length > 0 ? Number(rows[0].send_at) : null;
  }
}

/** The group's OPEN message as committed now (a locking read on MySQL, not the snapshot), or null. */
async function currentOpen(em: EntityManager, openKey: string): Promise<Pick<Notification, 'id' | 'events'> | null> {
  const lock = em.connection.options.type === 'mysql' ? ' FOR UPDATE' : '';
  const rows = (await em.query(`SELECT id, events FROM notification WHERE open_key = ? AND state = 'OPEN'${lock}`, [
    openKey,
  ])) as { id: string; events: string | NotificationEventSample[] }[];
  if (rows.length === 0) return null;
  const { id, events } = rows[0];
  return { id, events: typeof events === 'string' ? (JSON.parse(events) as NotificationEventSample[]) : events };
}
