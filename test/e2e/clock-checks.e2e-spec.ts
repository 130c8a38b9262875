import { Logger } from '@nestjs/common';
import { jest } from '@jest/globals';
import { type Clock, SystemClock } from '../../src/common/index.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { MetricsService } from '../../src/modules/observability/index.js';
import { createJob } from '../utils/jobs.js';
import {
  type AppClient,
  clusterEnv,
  signedClient,
  standaloneEnv,
  startNode,
  type TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

interface NodeView {
  nodeId: string;
  clockOffsetMs: number | null;
}

/** The system clock moved by `shiftMs` (a node whose clock is off), timers as usual. */
function shiftedClock(shiftMs: number): Clock {
  const real = new SystemClock();
  return { now: () => real.now() + shiftMs, schedule: (ms, fn) => real.schedule(ms, fn) };
}

async function offsetGauge(node: TestNode): Promise<number | undefined> {
  const gauge = node.app.get(MetricsService).registry.getSingleMetric('tickwheel_clock_offset_seconds');
  return (await gauge?.get())?.values[0]?.value;
}

/** Issue 26 item 7: a fire that starts late is logged, and every node's clock is compared with the database's. */
describe('late fires and clock offsets', () => {
  describe('a standalone node with one busy slot', () => {
    let node: TestNode;
    let client: AppClient;
    const warn = jest.spyOn(Logger.prototype, 'warn');

    beforeAll(async () => {
      node = await startNode(standaloneEnv({ EXECUTOR_CONCURRENCY: '1' }));
      client = await signedClient(node, undefined, [...DEFAULT_SCOPES, Scope.ADMIN]);
    });
    afterAll(async () => {
      warn.mockRestore();
      await node?.close();
    });

    it('should warn once a minute naming the job and how late its fire started', async () => {
      // Fires every second, each run 2.5 s on the only slot: the later fires wait for it and start late.
      const job = await createJob(client, {
        code: 'late-job',
        triggerType: 'FIXED_RATE',
        triggerExpr: '1000',
        overlapPolicy: 'ALLOW',
        params: { sleepMs: 2500 },
      });
      const pattern = new RegExp(
        `^job ${client.appId}/late-job \\(id ${job.id}, namespace ${node.config.namespace}\\) started (\\d+) ms late`,
      );
      const lines = () => warn.mock.calls.map((c) => String(c[0])).filter((l) => pattern.test(l));
      await waitFor('a late-start warning', async () => lines().length > 0, 30_000);
      expect(Number(pattern.exec(lines()[0])?.[1])).toBeGreaterThan(500);
      const late = await node.app.get(MetricsService).registry.getSingleMetric('tickwheel_late_fire_starts_total');
      await waitFor('more late starts counted', async () => ((await late?.get())?.values[0]?.value ?? 0) >= 3, 30_000);
      expect(lines()).toHaveLength(1); // the others of this minute are counted, not logged
      await client.request('POST', '/api/jobs/late-job/pause', {});
    }, 90_000);

    it('should report an offset of 0 on SQLite, whose clock is this host', async () => {
      const res = await client.request<{ items: NodeView[] }>('GET', '/api/nodes');
      expect(res.body.items.map((n) => n.clockOffsetMs)).toEqual([0]);
      expect(await offsetGauge(node)).toBe(0);
    });
  });

  describe('cluster nodes against MariaDB', () => {
    const ns = uniqueNamespace('clock');
    let skewed: TestNode;
    let exact: TestNode;
    let admin: AppClient;

    beforeAll(async () => {
      const env = clusterEnv(ns, { ROLES: 'api,executor' });
      skewed = await startNode(env, { clock: shiftedClock(2000) }); // 2 s ahead of the database
      exact = await startNode(env);
      admin = await signedClient(exact, undefined, [...DEFAULT_SCOPES, Scope.ADMIN]);
    });
    afterAll(async () => {
      await skewed?.close();
      await exact?.close();
    });

    it("should show each executor's offset in the node view and the gauge, the skewed one near -2 s", async () => {
      const nodes = async () => (await admin.request<{ items: NodeView[] }>('GET', '/api/nodes')).body.items;
      await waitFor(
        'both executors advertising an offset',
        async () => (await nodes()).filter((n) => n.clockOffsetMs !== null).length === 2,
        20_000,
      );
      const offsets = (await nodes()).map((n) => n.clockOffsetMs as number).sort((a, b) => a - b);
      expect(offsets[0]).toBeGreaterThan(-2400);
      expect(offsets[0]).toBeLessThan(-1600);
      expect(Math.abs(offsets[1])).toBeLessThan(400);
      expect(await offsetGauge(skewed)).toBeCloseTo(offsets[0] / 1000, 0);
      expect(Math.abs((await offsetGauge(exact)) as number)).toBeLessThan(0.4);
    }, 40_000);

    it('should hide the offset from a caller without admin', async () => {
      const tenant = await signedClient(exact);
      await createJob(tenant, { code: 'uses-noop' }); // the executors advertise noop, which it now uses
      const res = await tenant.request<{ items: NodeView[] }>('GET', '/api/nodes');
      expect(res.body.items.length).toBeGreaterThan(0);
      expect(res.body.items.every((n) => n.clockOffsetMs === null)).toBe(true);
    });
  });
});
