import { jest } from '@jest/globals';
import { verifyCallback } from '../../src/common/index.js';
import { CallbackState } from '../../src/modules/metadata/index.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { waitFor } from '../utils/async.js';
import { type DbKind } from '../utils/metadata-db.js';
import { SECRET, SHORT, senderHarness } from '../utils/callback-sender-harness.js';

jest.setTimeout(60_000);

describe.each<DbKind>(['mysql', 'sqlite'])('CallbackSender on %s (docs/callbacks.md "Sender")', (kind) => {
  const h = senderHarness(kind);
  const { sender, receiver, delivery, row, hostRow, start, idle, advance } = h;

  it('sends the signed body; a receiver failing twice gets the third try on the retry schedule', async () => {
    const r = await receiver((nth) => ({ status: nth <= 2 ? 500 : 200 }));
    const id = await delivery(r.url, { jobCode: null });
    start(sender());
    await idle();
    for (const [i, wait] of SHORT.retryDelaysMs.slice(0, 2).entries()) {
      expect(await row(id)).toMatchObject({ state: CallbackState.RETRYING, nextAttemptAt: h.clock.now() + wait });
      await advance(wait - 1);
      expect(r.hits).toHaveLength(i + 1); // a pass 1 ms before the due time tries nothing
      await advance(SHORT.pollMs); // the next pass, a poll later, tries it
      expect(r.hits).toHaveLength(i + 2);
    }
    const d = await row(id);
    expect([d.state, d.attempts, d.lastStatusCode, d.lastError, d.claim]).toEqual([
      CallbackState.DELIVERED,
      3,
      200,
      null,
      null,
    ]);
    expect(d.deliveredAt).toBe(h.clock.now());
    const hit = r.hits[2];
    expect(verifyCallback(hit.headers, hit.body, SECRET)).toMatchObject({ ok: true, deliveryId: id });
    const body = JSON.parse(hit.body) as Record<string, unknown>;
    expect(body).toMatchObject({ deliveryId: id, jobCode: null, status: 'SUCCESS', result: { ok: 1 } });
    expect(body).toMatchObject({ error: null, attempts: 1, durationMs: 250, finishedAt: '1970-01-01T00:00:01.250Z' });
    expect((await hostRow(r))?.consecutiveFailures ?? 0).toBe(0);
  });

  it('a receiver that never answers holds only its share: others are not delayed', async () => {
    // Real time: the dead host's tries hold their slots until the read timeout, a real timer of the connection.
    const dead = await receiver(() => 'hold');
    const live = await receiver();
    for (let i = 0; i < 6; i++) await delivery(dead.url);
    const t0 = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await delivery(live.url));
    start(sender({ readTimeoutMs: 5_000, leaseMs: 8_000 }));
    await waitFor('live delivered', async () => ids.every((id) => live.count(id) === 1), 10_000, 10);
    const latest = Math.max(...live.hits.map((h) => h.at)) - t0;
    expect(latest).toBeLessThan(3_000); // the dead host's tries wait 5 s for an answer
    expect(dead.hits.length).toBeLessThanOrEqual(SHORT.perHost);
  });

  it('a 400 is final after one try', async () => {
    const r = await receiver(() => ({ status: 400 }));
    const id = await delivery(r.url);
    start(sender());
    await idle();
    await advance(Math.max(...SHORT.retryDelaysMs)); // past every retry wait: nothing more is tried
    const d = await row(id);
    expect([d.state, d.attempts, d.lastStatusCode, r.count(id)]).toEqual([CallbackState.CALLBACK_FAILED, 1, 400, 1]);
  });

  it('a 429 with Retry-After waits that long, capped at the longest wait', async () => {
    const r = await receiver((nth) =>
      nth === 1 ? { status: 429, headers: { 'retry-after': '60' } } : { status: 200 },
    );
    const id = await delivery(r.url);
    start(sender());
    await idle();
    const longest = Math.max(...SHORT.retryDelaysMs); // 60 s asked, 800 ms granted
    expect((await row(id)).nextAttemptAt).toBe(h.clock.now() + longest);
    await advance(longest - 1);
    expect(r.count(id)).toBe(1);
    await advance(SHORT.pollMs);
    expect(await row(id)).toMatchObject({ state: CallbackState.DELIVERED, attempts: 2 });
  });

  it('two senders on one table never send the same try twice', async () => {
    const a = await receiver();
    const b = await receiver();
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await delivery(i % 2 ? a.url : b.url));
    start(sender());
    start(sender());
    await idle();
    expect((await Promise.all(ids.map(row))).every((d) => d.deliveredAt)).toBe(true);
    expect(ids.map((id) => a.count(id) + b.count(id))).toEqual(ids.map(() => 1));
  });

  it('shutdown gives in-flight tries the grace, then drops their claims without spending a try', async () => {
    const r = await receiver(() => 'hold');
    const ids = [await delivery(r.url), await delivery(r.url)];
    const s = sender({ readTimeoutMs: 2_000, leaseMs: 5_000 });
    start(s);
    await waitFor('both in flight', async () => r.hits.length === 2, 5_000, 10);
    // Real time: the grace is a real timer, since it bounds how long the process takes to exit.
    const t0 = Date.now();
    await s.beforeApplicationShutdown();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(SHORT.shutdownGraceMs - 20);
    for (const id of ids)
      expect(await row(id)).toMatchObject({ state: CallbackState.PENDING, attempts: 0, claim: null, leaseUntil: null });
  });

  it('a bad stored row or an egress refusal fails that delivery only; the loop goes on', async () => {
    const r = await receiver();
    const missing = await delivery(r.url);
    await h.db.ds.query(
      'DELETE FROM job_instance WHERE id = (SELECT instance_id FROM callback_delivery WHERE id = ?)',
      [missing],
    );
    const refused = await delivery('http://127.0.0.2:9/hook');
    const good = await delivery(r.url);
    start(sender());
    await idle();
    expect((await row(good)).state).toBe(CallbackState.DELIVERED);
    expect((await row(refused)).state).toBe(CallbackState.CALLBACK_FAILED);
    expect((await row(missing)).state).toBe(CallbackState.CALLBACK_FAILED);
    expect((await row(missing)).lastError).toMatch(/^BAD_DELIVERY: instance .* not found$/);
    expect((await row(refused)).lastError).toMatch(/^EGRESS_REFUSED: /);
    expect(r.count(missing)).toBe(0);
  });

  it('a delivery older than maxAgeMs ends EXPIRED; the outbox gauges and the counters follow', async () => {
    const r = await receiver();
    const old = await delivery(r.url, {}, h.clock.now() - 7_200_000);
    const fresh = await delivery(r.url);
    const metrics = new MetricsService();
    start(sender({ maxAgeMs: 3_600_000 }, metrics));
    await idle();
    expect((await row(fresh)).state).toBe(CallbackState.DELIVERED);
    expect(await row(old)).toMatchObject({ state: CallbackState.CALLBACK_FAILED, attempts: 0 });
    expect((await row(old)).lastError).toMatch(/^EXPIRED: /);
    expect(r.count(old)).toBe(0);
    const value = async (name: string) =>
      (await metrics.registry.getSingleMetric(name)!.get()).values.map((v) => [v.labels.outcome ?? '', v.value]);
    expect(await value('tickwheel_callback_deliveries_total')).toEqual(
      expect.arrayContaining([
        ['delivered', 1],
        ['failed', 1],
      ]),
    );
    const latency = (await metrics.registry.getSingleMetric('tickwheel_callback_latency_seconds')!.get()).values;
    expect(
      latency.find((v) => (v as { metricName?: string }).metricName === 'tickwheel_callback_latency_seconds_count')
        ?.value,
    ).toBe(1);
    expect((await metrics.registry.getSingleMetric('tickwheel_callback_outbox_depth')!.get()).values[0].value).toBe(1);
  });

  it('a claimed row is not claimed again until its lease ends, and a lost claim writes nothing', async () => {
    const id = await delivery('http://127.0.0.1:9/hook');
    const now = Date.now();
    expect(await h.deliveries.claim([id], 'claim-a', now, 1_000)).toHaveLength(1);
    expect(await h.deliveries.claim([id], 'claim-b', now + 999, 1_000)).toEqual([]);
    expect(await h.deliveries.dueCandidates(h.ns, now + 999, 10, [])).toEqual([]);
    expect((await h.deliveries.claim([id], 'claim-b', now + 1_001, 1_000)).map((d) => d.claim)).toEqual(['claim-b']);
    const patch = { state: CallbackState.DELIVERED, attempts: 1 };
    expect(await h.deliveries.settle(id, 'claim-a', patch, now + 1_002)).toBe(false);
    expect(await row(id)).toMatchObject({ state: CallbackState.PENDING, attempts: 0, claim: 'claim-b' });
    expect(await h.deliveries.settle(id, 'claim-b', patch, now + 1_003)).toBe(true);
    expect(await row(id)).toMatchObject({ state: CallbackState.DELIVERED, claim: null, leaseUntil: null });
  });
});
