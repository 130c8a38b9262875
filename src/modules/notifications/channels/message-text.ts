import type { Notification, NotificationDelivery, NotificationEventSample } from '../../metadata/index.js';
import { cutText } from '../../../common/index.js';

/** The JSON body of a `webhook` channel (docs/notifications.md "Channels"); times ISO-8601 UTC. */
export interface WebhookBody {
  notificationId: string;
  deliveryId: string;
  appId: string;
  rule: string;
  kind: string;
  title: string;
  groupKey: string;
  count: number;
  firstAt: string;
  lastAt: string;
  events: NotificationEventSample[];
}

/** Events a chat message or an e-mail lists at most (the webhook body carries every stored sample). */
const LISTED = 10;

/** The stored samples, or [] when the column cannot be read (a bad stored row still sends its title). */
function samples(msg: Notification): NotificationEventSample[] {
  return Array.isArray(msg.events) ? msg.events : [];
}

/** The webhook body of delivery `d` of message `msg`. */
export function webhookBody(msg: Notification, d: Pick<NotificationDelivery, 'id'>): WebhookBody {
  return {
    notificationId: msg.id,
    deliveryId: d.id,
    appId: msg.appId,
    rule: msg.ruleName,
    kind: msg.kind,
    title: msg.title,
    groupKey: msg.groupKey,
    count: msg.eventCount,
    firstAt: new Date(msg.firstEventAt).toISOString(),
    lastAt: new Date(msg.lastEventAt).toISOString(),
    events: samples(msg),
  };
}

/** One event as a line: `<at> <job or handler or host> <status> <error or detail>`, at most 300 characters. */
export function eventLine(e: NotificationEventSample): string {
  const subject = e.jobCode ?? e.handler ?? e.host ?? e.requestId ?? e.instanceId ?? '';
  const what = [e.status, e.error ?? e.detail].filter((p) => p !== null && p !== undefined && p !== '');
  const line = [String(e.at ?? ''), subject, ...what].filter((p) => p !== '').join(' ');
  return cutText(line, 300);
}

/** A stored title on one line: a chat line or a mail header never breaks on it. */
const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');

/** The lines every text channel shows: what, how many, when, then the first events. */
function textLines(msg: Notification): string[] {
  const events = samples(msg);
  const lines = [
    `${msg.eventCount} event${msg.eventCount === 1 ? '' : 's'} of rule "${msg.ruleName}" (${msg.kind}), ` +
      `app ${msg.appId}, ${new Date(msg.firstEventAt).toISOString()} to ${new Date(msg.lastEventAt).toISOString()}`,
    ...events.slice(0, LISTED).map((e) => `- ${eventLine(e)}`),
  ];
  if (msg.eventCount > Math.min(events.length, LISTED))
    lines.push(`(and ${msg.eventCount - Math.min(events.length, LISTED)} more)`);
  return lines;
}

/** The Slack/Mattermost incoming-webhook body of a `chat` channel: `{text}`, one readable message. */
export function chatBody(msg: Notification): { text: string } {
  return { text: [`*${oneLine(msg.title)}*`, ...textLines(msg)].join('\n') };
}

/** The subject and plain-text body of an `email` channel. */
export function emailText(msg: Notification): { subject: string; text: string } {
  const subject = `[tickwheel] ${oneLine(msg.title)}`;
  const text = [oneLine(msg.title), '', ...textLines(msg), '', `notification ${msg.id}`].join('\n');
  return { subject, text };
}
