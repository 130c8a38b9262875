import type { Notification, NotificationDelivery } from '../../metadata/index.js';
import type { NotificationDeliveryViewDto, NotificationViewDto } from '../dto/notification.dto.js';
import { iso } from './iso.js';

/** A URL as a list shows it: without its query string or fragment (they may hold tokens); e-mail as stored. */
export function shownTarget(d: Pick<NotificationDelivery, 'channelType' | 'target'>): string {
  if (d.channelType === 'email') return d.target;
  const cut = d.target.search(/[?#]/);
  return cut === -1 ? d.target : d.target.slice(0, cut);
}

/** The public view of a delivery; `nextAttemptAt` only while one is due (PENDING, RETRYING). */
export function toNotificationDeliveryView(d: NotificationDelivery): NotificationDeliveryViewDto {
  const due = d.state === 'PENDING' || d.state === 'RETRYING';
  return {
    id: d.id,
    channel: d.channelType,
    target: shownTarget(d),
    state: d.state,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    nextAttemptAt: due ? iso(d.nextAttemptAt) : null,
    deliveredAt: iso(d.deliveredAt),
  };
}

/** The public view of a message with its deliveries (unreadable stored events show as []). */
export function toNotificationView(n: Notification, deliveries: NotificationDelivery[]): NotificationViewDto {
  return {
    id: n.id,
    appId: n.appId,
    rule: n.ruleName,
    kind: n.kind,
    title: n.title,
    groupKey: n.groupKey,
    state: n.state,
    eventCount: n.eventCount,
    firstEventAt: iso(n.firstEventAt) as string,
    lastEventAt: iso(n.lastEventAt) as string,
    sendAt: iso(n.sendAt) as string,
    sentAt: iso(n.sentAt),
    events: Array.isArray(n.events) ? (n.events as unknown as Array<Record<string, unknown>>) : [],
    deliveries: deliveries.map(toNotificationDeliveryView),
  };
}
