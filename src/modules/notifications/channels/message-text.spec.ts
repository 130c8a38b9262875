import type { Notification } from '../../metadata/index.js';
import { maskSmtpUrl } from './email-channel.js';
import { chatBody, emailText, eventLine } from './message-text.js';

const at = (ms: number) => new Date(ms).toISOString();
const msg = (events: unknown, count: number) =>
  ({
    id: 'n-1',
    appId: 'shop',
    ruleName: 'nightly',
    kind: 'CONSECUTIVE_FAILURES',
    title: 'nightly-export failed 12 times\r\nBcc: x@evil',
    groupKey: 'nightly-export',
    eventCount: count,
    firstEventAt: 0,
    lastEventAt: 60_000,
    events,
  }) as unknown as Notification;

/** docs/notifications.md "Channels": what chat and e-mail show. */
describe('notification text', () => {
  it('lists at most 10 events and says how many more', () => {
    const events = Array.from({ length: 12 }, (_, i) => ({ at: at(i), jobCode: 'nightly-export', status: 'FAILED' }));
    const lines = chatBody(msg(events, 40)).text.split('\n');
    expect(lines).toHaveLength(2 + 10 + 1);
    expect(lines[0]).toBe('*nightly-export failed 12 times Bcc: x@evil*');
    expect(lines[2]).toBe('- 1970-01-01T00:00:00.000Z nightly-export FAILED');
    expect(lines.at(-1)).toBe('(and 30 more)');
  });

  it('keeps the subject on one line (no header injection) and survives unreadable stored events', () => {
    const { subject, text } = emailText(msg({ not: 'a list' }, 1));
    expect(subject).toBe('[tickwheel] nightly-export failed 12 times Bcc: x@evil');
    expect(text).toContain('1 event of rule "nightly" (CONSECUTIVE_FAILURES), app shop');
  });

  it('shows one event as time, subject, status and error, cut to 300 characters', () => {
    expect(eventLine({ at: at(0), handler: 'http', status: 'TIMEOUT', error: 'x'.repeat(400) })).toHaveLength(300);
    expect(eventLine({ at: at(0), host: 'hooks.example.com:443', detail: 'down' })).toBe(
      '1970-01-01T00:00:00.000Z hooks.example.com:443 down',
    );
  });

  it('masks the SMTP_URL password', () => {
    expect(maskSmtpUrl('smtps://mailer:s3cr%40t@smtp.example.com:465')).toBe('smtps://mailer:***@smtp.example.com:465');
    expect(maskSmtpUrl('smtp://smtp.example.com')).toBe('smtp://smtp.example.com');
  });
});
