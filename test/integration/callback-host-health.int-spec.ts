import { jest } from '@jest/globals';
import { CallbackDelivery, CallbackHostDeliveries, CallbackState } from '../../src/modules/metadata/index.js';
import { waitFor } from '../utils/async.js';
import type { CallbackHit } from '../utils/callback-receiver.js';
import { type DbKind } from '../utils/metadata-db.js';
import { SHORT, senderHarness } from '../utils/callback-sender-harness.js';

jest.setTimeout(90_000);

const HOST_DOWN = /^HOST_DOWN: 127\.0\.0\.1:\d+ failed \d+ tries in a row \(.+\)$/;

/**
 * Host health per (app, host) (docs/callbacks.md "Hosts marked down"): one app's failing receiver never holds
 * another app's callbacks to the same host:port, an app's deliveries to a host that failed
 * CALLBACK_HOST_DOWN_AFTER tries in a row fail fast but the one kept for the probe, and the host comes back.
 */
describe.each<DbKind>(['mysql', 'sqlite'])('callback host health per app on %s', (kind) => {
  const h = senderHarness(kind);
  const { sender, receiver, delivery, row, hostRow, start, idle, advance } = h;
  const rows = (ids: string[]) => Promise.all(ids.map(row));
  const failedFast = (d: CallbackDelivery) => d.state === CallbackState.CALLBACK_FAILED && HOST_DOWN.test(d.lastError!);

  /**
   * The hostile-tenant case of issue 24 (its copy runs in test/security/cases/callbacks.ts): app B's 200
   * callbacks to a dead path of a receiver that app A shares (same host:port) must not hold A's 10. Before host
   * health was per app, B's tries held the host's whole share, then took the host down for both apps: A's
   * deliveries waited for probes, which sent B's (the oldest) first.
   */
  it.each<[string, 'hold' | number]>([
    ['hangs', 'hold'],
    ['answers 503', 503],
  ])("app B's dead path that %s never delays app A's callbacks to the same host:port", async (_how, dead) => {
    const deadAnswer = dead === 'hold' ? 'hold' : { status: dead };
    const r = await receiver((_nth, _id, hit: CallbackHit) => (hit.path === '/b' ? deadAnswer : { status: 200 }));
    const origin = new URL(r.url).origin;
    const appB = await h.otherApp('b');
    const b: string[] = [];
    for (let i = 0; i < 200; i++) b.push(await delivery(`${origin}/b`, {}, undefined, appB));
    const a: string[] = [];
    for (let i = 0; i < 10; i++) a.push(await delivery(`${origin}/a`));
    const t0 = Date.now();
    // Real time: B's held tries end at the read timeout, a real timer of the connection.
    start(sender({ readTimeoutMs: 2_000, leaseMs: 5_000 }));
    await waitFor("A's 10 delivered", async () => (await rows(a)).every((d) => d.deliveredAt !== null), 10_000, 10);
    expect(Date.now() - t0).toBeLessThan(1_500); // B's first tries are still waiting for their answer
    await idle();
    // B's pair is down: its deliveries failed fast (no try spent but theirs) except the newest, kept as the probe.
    const bRows = await rows(b);
    expect((await hostRow(r, appB))?.downSince).toBe(h.clock.now());
    expect((await hostRow(r))?.downSince ?? null).toBeNull();
    expect(bRows.filter(failedFast)).toHaveLength(199);
    expect(bRows.at(-1)).toMatchObject({ state: CallbackState.PENDING, attempts: 0 });
    expect(bRows.reduce((n, d) => n + d.attempts, 0)).toBe(r.hits.filter((x) => x.path === '/b').length);
    expect(r.hits.filter((x) => x.path === '/b').length).toBeLessThanOrEqual(2 * SHORT.perHost);
    expect(await h.hosts.countDown(h.ns)).toBe(1); // tickwheel_callback_hosts_down counts (app, host) pairs
    // A's new callbacks keep flowing while B's pair is down.
    const later = await delivery(`${origin}/a`);
    await advance(SHORT.pollMs);
    expect((await row(later)).state).toBe(CallbackState.DELIVERED);
  });

  it("fail fast: an app's pending and new deliveries to a down host end HOST_DOWN; the host comes back by a probe", async () => {
    let healthy = false;
    const r = await receiver(() => ({ status: healthy ? 200 : 502 }));
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await delivery(r.url));
    start(sender({ perHost: 1, retryDelaysMs: [100, 200, 300, 400, 500, 600] }));
    await idle(); // three tries, one after the other, took the host down for the app
    const host = (await hostRow(r))!;
    expect([host.downSince, host.consecutiveFailures, host.probeId]).toEqual([h.clock.now(), 3, ids[5]]);
    const d = await rows(ids);
    expect(d.slice(0, 5).every(failedFast)).toBe(true);
    expect(d[0].lastError).toBe(`HOST_DOWN: ${new URL(r.url).host} failed 3 tries in a row (HTTP 502)`);
    expect(d.map((x) => x.attempts)).toEqual([1, 1, 1, 0, 0, 0]); // tried ones keep their try, the rest spent none
    expect(d[5]).toMatchObject({ state: CallbackState.PENDING, attempts: 0 }); // the newest: kept as the probe
    expect(d[5].nextAttemptAt).toBe(host.nextProbeAt); // not due before its probe, and the view says when
    expect(r.hits).toHaveLength(3);

    await advance(100 + 200, 100); // probes 100 ms after, then 200 ms after that: they fail, spending no try
    expect(r.count(ids[5])).toBe(2);
    expect(await row(ids[5])).toMatchObject({ state: CallbackState.PENDING, attempts: 0, lastStatusCode: 502 });
    expect((await hostRow(r))!.probes).toBe(2);
    expect((await row(ids[5])).nextAttemptAt).toBe((await hostRow(r))!.nextProbeAt);

    const fresh = await delivery(r.url); // a new one while down: it is the probe now, the old probe ends
    await advance(SHORT.pollMs);
    expect(await row(ids[5])).toMatchObject({ state: CallbackState.CALLBACK_FAILED, attempts: 0 });
    expect(failedFast(await row(ids[5]))).toBe(true);
    expect(await row(fresh)).toMatchObject({ state: CallbackState.PENDING, attempts: 0 });
    expect([r.count(fresh), (await hostRow(r))!.probeId]).toEqual([0, fresh]);

    healthy = true;
    await advance(300); // the third probe succeeds: the host is up again, the probe was delivered
    expect(await row(fresh)).toMatchObject({ state: CallbackState.DELIVERED, attempts: 1 });
    expect((await hostRow(r))!).toMatchObject({ downSince: null, consecutiveFailures: 0, probeId: null });
    const after = await delivery(r.url); // new callbacks flow normally again
    await advance(SHORT.pollMs);
    expect((await row(after)).state).toBe(CallbackState.DELIVERED);
    expect(r.count(after)).toBe(1);
  });

  it('redeliver by host sends the failed ones again with the same deliveryId, at most `max`, oldest first', async () => {
    const r = await receiver(() => ({ status: 503 }));
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await delivery(r.url));
    start(sender({ perHost: 1 }));
    await idle();
    expect((await rows(ids)).filter(failedFast)).toHaveLength(4);
    const key = { namespace: h.ns, appId: h.appId, host: new URL(r.url).host };
    const waiting = new CallbackHostDeliveries(h.db.ds);
    const since = h.clock.now();
    const first = await h.db.ds.transaction((em) => waiting.redeliverFailedSince(em, key, since, 3, since));
    expect(first).toEqual({ redelivered: 3, more: true });
    const second = await h.db.ds.transaction((em) => waiting.redeliverFailedSince(em, key, since, 3, since));
    expect(second).toEqual({ redelivered: 1, more: false });
    const none = await h.db.ds.transaction((em) => waiting.redeliverFailedSince(em, key, since + 1, 3, since));
    expect(none).toEqual({ redelivered: 0, more: false });
    const d = await rows(ids);
    expect(d.map((x) => x.id)).toEqual(ids); // the same rows, the same deliveryIds
    expect(d.filter((x) => x.state === CallbackState.PENDING && x.attempts === 0)).toHaveLength(5);
  });
});
