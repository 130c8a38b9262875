import { waitFor } from '../../utils/async.js';
import { type Hostile } from '../harness.js';

type Page = { total: number; items: Array<{ status?: string; state?: string; host?: string; lastError?: string }> };

/**
 * Callback host health per app (docs/callbacks.md "Hosts marked down"; issue 24 item 3, a hostile-tenant finding):
 * one app's dead receiver path cannot hold another app's callbacks to the same host:port. Before, app B's 200
 * callbacks to a dead path kept app A's 10 to the same receiver at 0 tries for 11 minutes: B's tries held the
 * host's share, then took the host down for both apps, and its probes sent B's (the oldest) first. The sender's
 * own copy of this case, on a hand-driven clock: test/integration/callback-host-health.int-spec.ts.
 */
export function callbackHostCases(h: Hostile): void {
  it("[tenancy] app B's dead callback path never delays app A's callbacks to the same host:port", async () => {
    const [a, b] = await Promise.all([h.newApp('fair-a'), h.newApp('fair-b')]);
    const host = new URL(h.receiver.url).host;
    const [aPath, bPath] = [`/live-${a.appId}`, `/dead-${b.appId}`];
    const sentTo = (path: string) => h.receiver.callbacks.filter((c) => c.path === path);
    const since = new Date(Date.now() - 1_000).toISOString();
    h.receiver.answer = (path) => (path === bPath ? 'hold' : 200);
    try {
      const bTasks = Array.from({ length: 200 }, (_, i) => ({ requestId: `b-${i}`, handler: 'noop' }));
      const bSent = await b.submitTasks(bTasks.map((t) => ({ ...t, callbackUrl: `${h.receiver.url}${bPath}` })));
      expect(bSent.status).toBe(202);
      // B's first tries hang on the receiver: under host health per host they held the host's whole share.
      await waitFor("B's tries to hang", async () => sentTo(bPath).length >= 2, 20_000, 20);
      const aTasks = Array.from({ length: 10 }, (_, i) => ({ requestId: `a-${i}`, handler: 'noop' }));
      const t0 = Date.now();
      const aSent = await a.submitTasks(aTasks.map((t) => ({ ...t, callbackUrl: `${h.receiver.url}${aPath}` })));
      expect(aSent.status).toBe(202);
      const aDelivered = () => a.request<Page>('GET', '/api/callbacks/deliveries?state=DELIVERED&limit=1');
      // Seconds, not minutes: 4 s alone, once over 10 s beside another suite on 2 cores; the bug held A for 11 minutes.
      await waitFor("A's 10 callbacks delivered", async () => (await aDelivered()).body.total === 10, 20_000, 20);
      expect(sentTo(aPath)).toHaveLength(10); // one try each
      expect(Date.now() - t0).toBeLessThan(20_000);

      // B's host is down for B alone: its deliveries end HOST_DOWN but the one kept for the probe.
      const failed = () => b.request<Page>('GET', '/api/callbacks/deliveries?state=CALLBACK_FAILED&limit=1');
      await waitFor("B's deliveries to fail fast", async () => (await failed()).body.total === 199, 30_000, 100);
      expect((await failed()).body.items[0].lastError).toMatch(new RegExp(`^HOST_DOWN: ${host} failed \\d+ tries`));
      expect((await b.request<Page>('GET', '/api/callbacks/hosts')).body.items).toMatchObject([
        { host, state: 'down' },
      ]);
      expect((await a.request<Page>('GET', '/api/callbacks/hosts')).body.total).toBe(0);

      // B fixes its receiver and redelivers by host: all 200 arrive, each under its own deliveryId.
      h.receiver.answer = () => 200;
      const again = await b.request('POST', '/api/callbacks/hosts/redeliver', { host, since });
      expect([again.status, again.body]).toEqual([202, { redelivered: 199, more: false }]);
      const delivered = () => b.request<Page>('GET', '/api/callbacks/deliveries?state=DELIVERED&limit=1');
      await waitFor("B's 200 delivered", async () => (await delivered()).body.total === 200, 30_000, 100);
      expect(new Set(sentTo(bPath).map((c) => c.deliveryId)).size).toBe(200);
      expect((await b.request<Page>('GET', '/api/callbacks/hosts')).body.items).toMatchObject([{ host, state: 'up' }]);
    } finally {
      h.receiver.answer = () => 200;
    }
  });
}
