import { Injectable, Module } from '@nestjs/common';
import { COORDINATION, type CoordinationPort, type NodeAdvert } from '../../src/modules/coordination/index.js';
import { DispatchModule, UnadvertisedWaits } from '../../src/modules/dispatch/index.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import {
  type AppClient,
  clusterEnv,
  signedClient,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

/** A module of another engineer's: it imports DispatchModule and injects the scan (the boot fails if it cannot). */
@Injectable()
class WaitsReader {
  constructor(readonly waits: UnadvertisedWaits) {}
}
@Module({ imports: [DispatchModule], providers: [WaitsReader] })
class ReaderModule {}

/**
 * UnadvertisedWaits and the leader's gauge tickwheel_tasks_waiting_unadvertised (docs/dispatch.md "Waiting for a
 * handler"), on MariaDB and Redis: a leading api+scheduler node with no executor of its own, and nodes registered by
 * the test: a trusted executor advertising `noop`, an app worker of app A advertising `report`.
 */
describe('UnadvertisedWaits (MariaDB + Redis)', () => {
  const ns = uniqueNamespace('int-unadvertised');
  let node: TestNode;
  let coordination: CoordinationPort;
  let a: AppClient;
  let b: AppClient;
  let beating: NodeJS.Timeout;

  const advert = (handlers: string[], appId: string | null): NodeAdvert => ({
    handlers,
    capacity: 0, // takes nothing: what it serves is dispatched to it but never claimed
    active: 0,
    labels: {},
    host: 'test',
    startedAt: Date.now(),
    appId,
  });

  beforeAll(async () => {
    node = await startNode(clusterEnv(ns, { ROLES: 'api,scheduler' }), { imports: [ReaderModule] });
    coordination = node.app.get<CoordinationPort>(COORDINATION);
    a = await signedClient(node);
    b = await signedClient(node);
    const beat = () =>
      Promise.all([
        coordination.heartbeat(`${ns}-trusted`, advert(['noop'], null), Date.now()),
        coordination.heartbeat(`${ns}-worker-a`, advert(['report'], a.appId), Date.now()),
      ]);
    await beat();
    beating = setInterval(() => void beat(), 500);
  });

  afterAll(async () => {
    clearInterval(beating);
    await coordination?.removeNode(`${ns}-trusted`);
    await coordination?.removeNode(`${ns}-worker-a`);
    await deleteNamespaceRows(node?.ds, ns, { definitions: true });
    await node?.close();
  });

  async function submit(client: AppClient, requestId: string, handler: string, delayMs = 0): Promise<void> {
    const res = await client.request('POST', '/api/tasks', { requestId, handler, ...(delayMs ? { delayMs } : {}) });
    expect(res.status).toBe(202);
  }

  it('should find, oldest first, the due PENDING work no live node that may take it advertises', async () => {
    const t0 = Date.now();
    await submit(b, 'b-report-1', 'report'); // app A's worker serves report for A only
    await submit(a, 'a-mystery', 'mystery');
    await submit(b, 'b-report-2', 'report');
    await submit(a, 'a-report', 'report'); // served by A's worker
    await submit(b, 'b-noop', 'noop'); // served by the trusted executor
    await submit(a, 'a-later', 'mystery', 3_600_000); // not due yet
    const waits = await node.app.get(WaitsReader, { strict: false }).waits.scan(ns, Date.now());
    expect(waits.map(({ appId, handler, count }) => ({ appId, handler, count }))).toEqual([
      { appId: b.appId, handler: 'report', count: 2 },
      { appId: a.appId, handler: 'mystery', count: 1 },
    ]);
    for (const w of waits) expect(w.oldestCreatedAt).toBeGreaterThanOrEqual(t0 - 5);
    expect(waits[0].oldestCreatedAt).toBeLessThanOrEqual(waits[1].oldestCreatedAt);
    // Another namespace's rows are not this one's.
    expect(await node.app.get(UnadvertisedWaits).scan(`${ns}-other`, Date.now())).toEqual([]);
  });

  it("should show them on the leader's gauge by handler, and drop a handler once a node advertises it", async () => {
    const gauge = async () => {
      const text = await (await fetch(`${node.url}/metrics`)).text();
      const lines = text.split('\n').filter((l) => l.startsWith('tickwheel_tasks_waiting_unadvertised{'));
      return Object.fromEntries(lines.map((l) => [/handler="([^"]*)"/.exec(l)?.[1], Number(l.split(' ')[1])]));
    };
    await waitFor('the waiting gauge', async () => JSON.stringify(await gauge()) === '{"report":2,"mystery":1}');
    await coordination.heartbeat(`${ns}-late`, advert(['mystery'], null), Date.now());
    await waitFor('mystery served', async () => JSON.stringify(await gauge()) === '{"report":2}', 10_000);
    await coordination.removeNode(`${ns}-late`);
  }, 30_000);
});
