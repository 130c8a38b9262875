import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { verifyCallback } from '../../src/common/index.js';
import { Notification } from '../../src/modules/metadata/index.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { waitFor } from '../utils/async.js';
import { type DbKind } from '../utils/metadata-db.js';
import { notificationHarness, SECRET, SHORT, startSink } from '../utils/notification-harness.js';
import { smtpSink } from '../utils/smtp-sink.js';
import { storeApiClient } from '../utils/callback-rows.js';

jest.setTimeout(60_000);

/** A TCP server that accepts connections and says nothing (an SMTP server slower than every timeout). */
async function silentSmtp(): Promise<{ url: string; connections: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const state = { connections: 0 };
  const server: Server = createServer((s) => {
    state.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    get connections() {
      return state.connections;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe.each<DbKind>(['mysql', 'sqlite'])('notification delivery on %s (docs/notifications.md "Delivery")', (kind) => {
  const h = notificationHarness(kind);

  it('closes a due message and POSTs the signed webhook body with X-Tickwheel-Event', async () => {
    const sink = await startSink();
    try {
      const metrics = new MetricsService();
      const s = h.sender({}, {}, metrics);
      const id = await h.message([{ type: 'webhook', url: sink.url }]);
      expect(await h.closer({}, s).tick()).toEqual({ closed: 1, postponed: 0, errors: 0 });
      h.start(s);
      await h.idle();
      const msg = await h.db.ds.getRepository(Notification).findOneByOrFail({ id });
      expect([msg.state, msg.openKey, msg.sentAt]).toEqual(['SENT', null, h.clock.now()]);
      const [d] = await h.deliveriesOf(id);
      expect(d).toMatchObject({ state: 'DELIVERED', attempts: 1, lastStatusCode: 200, channelType: 'webhook' });
      expect(sink.hits).toHaveLength(1);
      const hit = sink.hits[0];
      expect(verifyCallback(hit.headers, hit.body, SECRET)).toMatchObject({ ok: true, deliveryId: d.id });
      expect(hit.headers['x-tickwheel-event']).toBe('notification');
      expect(JSON.parse(hit.body)).toEqual({
        notificationId: id,
        deliveryId: d.id,
        appId: h.appId,
        rule: 'failures',
        kind: 'FINAL_FAILURE',
        title: 'job-a failed 3 times',
        groupKey: 'job-a',
        count: 3,
        firstAt: new Date(msg.firstEventAt).toISOString(),
        lastAt: new Date(msg.lastEventAt).toISOString(),
        events: msg.events,
      });
      expect(await h.auditActions()).toEqual(['NOTIFICATION_SENT']);
      const counted = (await metrics.notificationDeliveries.get()).values.filter((v) => v.value > 0);
      expect(counted).toEqual([expect.objectContaining({ labels: { channel: 'webhook', outcome: 'delivered' } })]);
    } finally {
      await sink.close();
    }
  });

  it('sends a chat channel one {text} message, unsigned; a message without channels is only marked SENT', async () => {
    const sink = await startSink();
    try {
      const id = await h.message([{ type: 'chat', url: sink.url }]);
      const none = await h.message([]);
      expect((await h.closer().tick()).closed).toBe(2);
      h.start(h.sender());
      await h.idle();
      const body = JSON.parse(sink.hits[0].body) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['text']);
      const lines = String(body.text).split('\n');
      expect(lines[0]).toBe('*job-a failed 3 times*');
      expect(lines[1]).toMatch(/^3 events of rule "failures" \(FINAL_FAILURE\)/);
      expect(lines.slice(2)).toEqual([
        expect.stringMatching(/^- \S+Z job-a FAILED boom 1$/),
        expect.stringMatching(/^- \S+Z job-a FAILED boom 2$/),
        '(and 1 more)',
      ]);
      expect(sink.hits[0].headers['x-tickwheel-signature']).toBeUndefined();
      expect((await h.deliveriesOf(id))[0].state).toBe('DELIVERED');
      expect(await h.deliveriesOf(none)).toEqual([]);
      expect((await h.db.ds.getRepository(Notification).findOneByOrFail({ id: none })).state).toBe('SENT');
    } finally {
      await sink.close();
    }
  });

  it('e-mails the recipients through SMTP_URL; no SMTP_URL fails the delivery (SMTP_NOT_CONFIGURED)', async () => {
    const smtp = await smtpSink();
    try {
      const id = await h.message([{ type: 'email', to: ['ops@example.com', 'dev@example.com'] }]);
      const unset = await h.message([{ type: 'email', to: ['ops@example.com'] }]);
      await h.closer().tick();
      // Two senders: one with SMTP_URL, one without; each message's delivery claimed by whichever comes first.
      const withSmtp = h.sender({}, { smtpUrl: smtp.url, smtpFrom: 'Tickwheel <tw@example.com>' });
      await h.deliveries.claim([(await h.deliveriesOf(unset))[0].id], 'held', h.clock.now(), 60_000);
      h.start(withSmtp);
      await h.idle();
      expect(smtp.mails).toHaveLength(1);
      const [mail] = smtp.mails;
      expect([mail.from, mail.to]).toEqual(['tw@example.com', ['ops@example.com', 'dev@example.com']]);
      expect(mail.data).toMatch(/^Subject: \[tickwheel\] job-a failed 3 times\r?$/m);
      expect(mail.data).toContain('job-a FAILED boom 1');
      const [d] = await h.deliveriesOf(id);
      expect(d).toMatchObject({ state: 'DELIVERED', attempts: 1, target: 'ops@example.com,dev@example.com' });
      expect(mail.data).toContain(`Message-ID: <${d.id}@example.com>`);
      await h.db.ds.query('UPDATE notification_delivery SET claim = NULL, lease_until = NULL WHERE claim = ?', [
        'held',
      ]);
      h.start(h.sender());
      await h.idle();
      expect((await h.deliveriesOf(unset))[0]).toMatchObject({
        state: 'FAILED',
        lastError: 'SMTP_NOT_CONFIGURED: SMTP_URL is not set',
      });
      expect((await h.auditActions()).sort()).toEqual([
        'NOTIFICATION_FAILED',
        'NOTIFICATION_SENT',
        'NOTIFICATION_SENT',
      ]);
    } finally {
      await smtp.close();
    }
  });

  it('a receiver that is down: RETRYING at the first wait, then up again: DELIVERED, same delivery id', async () => {
    const first = await startSink();
    const port = first.port;
    await first.close(); // connection refused from now on
    const id = await h.message([{ type: 'webhook', url: `http://127.0.0.1:${port}/hook` }]);
    await h.closer().tick();
    h.start(h.sender());
    await h.idle();
    const [d1] = await h.deliveriesOf(id);
    expect(d1).toMatchObject({ state: 'RETRYING', attempts: 1, nextAttemptAt: h.clock.now() + SHORT.retryDelaysMs[0] });
    expect(d1.lastError).toMatch(/ECONNREFUSED/);
    const sink = await startSink(() => 200, port);
    try {
      await h.advance(SHORT.retryDelaysMs[0] - 1);
      expect(sink.hits).toHaveLength(0); // not due yet
      await h.advance(SHORT.pollMs);
      const [d2] = await h.deliveriesOf(id);
      expect(d2).toMatchObject({ id: d1.id, state: 'DELIVERED', attempts: 2, lastError: null });
      expect(sink.hits.map((x) => x.deliveryId)).toEqual([d1.id]);
    } finally {
      await sink.close();
    }
  });

  it('an SMTP server slower than the timeouts: the try ends at the timeout and is retried, nothing stuck', async () => {
    const slow = await silentSmtp();
    try {
      const id = await h.message([{ type: 'email', to: ['ops@example.com'] }]);
      await h.closer().tick();
      const s = h.sender({ smtpTimeoutMs: 500 }, { smtpUrl: slow.url });
      const t0 = Date.now();
      h.start(s);
      await h.idle(10_000);
      const took = Date.now() - t0;
      const [d] = await h.deliveriesOf(id);
      expect(d).toMatchObject({ state: 'RETRYING', attempts: 1, claim: null });
      expect(d.lastError).toMatch(/timeout|ETIMEDOUT/i);
      expect(took).toBeGreaterThanOrEqual(450);
      expect(took).toBeLessThan(5_000);
      expect(s.inFlight).toBe(0);
      expect(slow.connections).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it("a sender that stopped mid-try: its claimed row is sent by another once the lease ends, and the dead claim's write is refused", async () => {
    const sink = await startSink();
    try {
      const id = await h.message([{ type: 'webhook', url: sink.url }]);
      await h.closer().tick();
      const [d] = await h.deliveriesOf(id);
      // Sender A claimed it, then died before writing anything.
      expect(await h.deliveries.claim([d.id], 'dead-sender', h.clock.now(), SHORT.leaseMs)).toHaveLength(1);
      h.start(h.sender());
      await h.idle();
      expect(sink.hits).toHaveLength(0); // the lease holds it
      await h.advance(SHORT.leaseMs + 1);
      expect((await h.deliveriesOf(id))[0]).toMatchObject({ id: d.id, state: 'DELIVERED', attempts: 1 });
      expect(await h.deliveries.settle(d.id, 'dead-sender', { state: 'FAILED' }, h.clock.now())).toBe(false);
      expect((await h.deliveriesOf(id))[0].state).toBe('DELIVERED');
    } finally {
      await sink.close();
    }
  });

  it('a sender shut down mid-try drops its claim after the grace; a restarted sender sends the same delivery', async () => {
    let hold = true;
    const sink = await startSink(() => (hold ? 'hold' : 200));
    try {
      const id = await h.message([{ type: 'webhook', url: sink.url }]);
      await h.closer().tick();
      const a = h.sender({ readTimeoutMs: 10_000, leaseMs: 30_000 });
      a.onApplicationBootstrap();
      const [d] = await h.deliveriesOf(id);
      for (let i = 0; i < 500 && sink.hits.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      await a.beforeApplicationShutdown(); // 300 ms grace, then aborted: the claim goes back, no try spent
      expect((await h.deliveriesOf(id))[0]).toMatchObject({ state: 'PENDING', attempts: 0, claim: null });
      hold = false;
      h.start(h.sender());
      await h.idle();
      expect((await h.deliveriesOf(id))[0]).toMatchObject({ state: 'DELIVERED', attempts: 1 });
      expect(sink.hits.map((x) => x.deliveryId)).toEqual([d.id, d.id]); // at least once: the receiver deduplicates
    } finally {
      await sink.close();
    }
  });

  it('the per-app rate limit postpones a message (still OPEN, collecting), never drops it', async () => {
    const c = h.closer({ maxPerHour: 2 });
    const t0 = h.clock.now();
    const ids = [await h.message([]), await h.message([]), await h.message([])];
    expect(await c.tick()).toEqual({ closed: 2, postponed: 1, errors: 0 });
    const repo = h.db.ds.getRepository(Notification);
    const late = (await repo.findBy({ namespace: h.ns, state: 'OPEN' }))[0];
    expect(ids).toContain(late.id);
    expect([late.openKey, late.sendAt]).toEqual([late.id, t0 + 3_600_000]);
    h.clock.setNow(t0 + 3_600_000 - 1);
    expect(await c.tick()).toEqual({ closed: 0, postponed: 0, errors: 0 });
    h.clock.setNow(t0 + 3_600_000);
    expect(await c.tick()).toEqual({ closed: 1, postponed: 0, errors: 0 });
    expect((await repo.findBy({ namespace: h.ns, state: 'SENT' })).length).toBe(3);
  });

  it('two closers at once close each message exactly once: one set of deliveries, one audit row', async () => {
    const channels = [
      { type: 'webhook' as const, url: 'http://127.0.0.1:9/a' },
      { type: 'email' as const, to: ['x@example.com'] },
    ];
    for (let i = 0; i < 20; i++) await h.message(channels);
    const [a, b] = await Promise.all([h.closer().tick(), h.closer().tick()]);
    expect(a.closed + b.closed).toBe(20);
    expect(a.errors + b.errors).toBe(0);
    const n = async (sql: string) => Number(((await h.db.ds.query(sql, [h.ns])) as Array<{ n: unknown }>)[0].n);
    expect(await n('SELECT COUNT(*) AS n FROM notification_delivery WHERE namespace = ?')).toBe(40);
    const perChannel = 'SELECT COUNT(DISTINCT notification_id, channel_index) AS n FROM notification_delivery';
    if (kind === 'mysql') expect(await n(`${perChannel} WHERE namespace = ?`)).toBe(40);
    expect((await h.auditActions()).filter((x) => x === 'NOTIFICATION_SENT')).toHaveLength(20);
  });

  it('final answers fail at once: an egress refusal, an SMTP 5xx; each writes NOTIFICATION_FAILED', async () => {
    const smtp = await smtpSink(() => Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
    try {
      const id = await h.message([
        { type: 'webhook', url: 'http://169.254.169.254/latest' },
        { type: 'email', to: ['nobody@example.com'] },
      ]);
      await h.closer().tick();
      h.start(h.sender({}, { smtpUrl: smtp.url }));
      await h.idle();
      const [refused, bounced] = await h.deliveriesOf(id);
      expect(refused).toMatchObject({ state: 'FAILED', attempts: 1, lastStatusCode: null });
      expect(refused.lastError).toMatch(/^EGRESS_REFUSED: /);
      expect(bounced).toMatchObject({ state: 'FAILED', attempts: 1, lastStatusCode: 550 });
      expect(bounced.lastError).toMatch(/^SMTP 550: .*mailbox unavailable/);
      expect((await h.auditActions()).filter((a) => a === 'NOTIFICATION_FAILED')).toHaveLength(2);
    } finally {
      await smtp.close();
    }
  });

  it('a receiver that holds every request holds only its per-host share; other hosts are not delayed', async () => {
    const stuck = await startSink(() => 'hold');
    const live = await startSink();
    try {
      for (let i = 0; i < 4; i++) await h.message([{ type: 'webhook', url: stuck.url }]);
      const fine = [
        await h.message([{ type: 'chat', url: live.url }]),
        await h.message([{ type: 'chat', url: live.url }]),
      ];
      await h.closer().tick();
      const s = h.sender({ perHost: 2, readTimeoutMs: 5_000, leaseMs: 10_000 });
      s.onApplicationBootstrap();
      const t0 = Date.now();
      while (live.hits.length < 2 && Date.now() - t0 < 3_000) await new Promise((r) => setTimeout(r, 10));
      expect(live.hits).toHaveLength(2);
      expect(stuck.hits).toHaveLength(2); // the other two wait for a slot of their host
      const delivered = async () => (await Promise.all(fine.map(h.deliveriesOf))).every(([d]) => d.deliveredAt);
      await waitFor('live deliveries written', delivered, 3_000, 10);
      expect(stuck.hits).toHaveLength(2);
    } finally {
      await stuck.close();
      await live.close();
    }
  });

  it("one app's hanging receivers on many hosts hold only its share of the slots; another app's go at once", async () => {
    const stuck = await Promise.all(Array.from({ length: 6 }, () => startSink(() => 'hold')));
    const live = await startSink();
    try {
      // The hostile tenant of issue 24's attack: a hanging receiver per host, so the per-host share never binds.
      const other = `${h.appId}-x`;
      await storeApiClient(h.db.ds, other, SECRET);
      for (const sink of stuck) await h.message([{ type: 'chat', url: sink.url }], { appId: other });
      const fine = await h.message([{ type: 'chat', url: live.url }]);
      await h.closer().tick();
      const s = h.sender({ senders: 8, perHost: 4, readTimeoutMs: 5_000, leaseMs: 10_000 });
      s.onApplicationBootstrap();
      await waitFor(
        'the other app delivered',
        async () => (await h.deliveriesOf(fine))[0].deliveredAt !== null,
        3_000,
        10,
      );
      expect(stuck.reduce((n, sink) => n + sink.hits.length, 0)).toBe(5); // max(perHost + 1, 8 / 2): five of its six
      await h.db.ds.query('DELETE FROM api_client WHERE app_id = ?', [other]);
    } finally {
      await Promise.all([...stuck, live].map((sink) => sink.close()));
    }
  });

  it('a bad stored channel fails its delivery (BAD_CHANNEL) and the others are sent', async () => {
    const sink = await startSink();
    try {
      const bad = { type: 'webhook', url: 42 } as unknown as { type: 'webhook'; url: string };
      const id = await h.message([bad, { type: 'webhook', url: sink.url }]);
      await h.closer().tick();
      h.start(h.sender());
      await h.idle();
      const [d0, d1] = await h.deliveriesOf(id);
      expect(d0).toMatchObject({ state: 'FAILED', channelIndex: 0 });
      expect(d0.lastError).toMatch(/^BAD_CHANNEL/);
      expect(d1).toMatchObject({ state: 'DELIVERED', channelIndex: 1 });
      expect((await h.auditActions()).sort()).toEqual(['NOTIFICATION_FAILED', 'NOTIFICATION_SENT']);
    } finally {
      await sink.close();
    }
  });
});
