import { Scope } from '../../src/modules/metadata/index.js';
import { createJob } from '../utils/jobs.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { appClient, expectProblem, SHAPES } from '../utils/tenancy.js';
import { type AppClient, executorsBeat, startNode, type TestNode } from '../utils/test-node.js';

type Load = {
  from: string;
  to: string;
  bucketMs: number;
  buckets: number[];
  herds: Array<{ at: string; fires: number; jobs: string[] }>;
  jobs: number;
  estimatedJobs: number;
};
const MIN = 60_000;
const sum = (xs: number[]) => xs.reduce((x, y) => x + y, 0);

/**
 * GET /api/schedules/load (docs/api.md "Schedule load") on both shapes, for schedules whose fires are known: two
 * jobs at second 0 of every minute, a FIXED_RATE grid, a dense every-second job counted from its rate; tenancy and
 * bad queries. The jobs are real (created through the API): they fire while the test runs, which changes nothing
 * of their schedules.
 */
describe.each(SHAPES)('schedule load (%s)', (_shape, env) => {
  let node: TestNode;
  let a: AppClient;
  let b: AppClient;
  let admin: AppClient;
  let rateNext: number;

  beforeAll(async () => {
    node = await startNode(env());
    if (node.config.shape === 'cluster') await executorsBeat(node, 1); // an enabled noop job needs a live executor
    [a, b, admin] = await Promise.all([
      appClient(node, 'sl-a'),
      appClient(node, 'sl-b'),
      appClient(node, 'sl-admin', [Scope.ADMIN]),
    ]);
    for (const code of ['tick-b', 'tick-a']) await createJob(a, { code, triggerExpr: '0 * * * * *' });
    await createJob(a, { code: 'paused', triggerExpr: '0 * * * * *', enabled: false });
    const rate = await createJob(b, { code: 'rate', triggerType: 'FIXED_RATE', triggerExpr: '900000' });
    rateNext = Date.parse(rate.nextFireTime as string);
  }, 60_000);

  afterAll(async () => {
    if (node?.config.shape === 'cluster')
      await deleteNamespaceRows(node.ds, node.config.namespace, { definitions: true });
    await node?.close();
  });

  const load = async (c: AppClient, query = '') => {
    const res = await c.request<Load>('GET', `/api/schedules/load${query}`);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  };

  it('should count two jobs at second 0 as 2 fires every minute, and a herd of 2 at each minute', async () => {
    const l = await load(a, '?hours=1&herd=2');
    const from = Date.parse(l.from);
    expect(from % MIN).toBe(0);
    expect(Date.now() - from).toBeLessThan(2 * MIN);
    expect(Date.parse(l.to) - from).toBe(60 * MIN);
    expect(l).toMatchObject({ bucketMs: 60_000, jobs: 2, estimatedJobs: 0 });
    expect(l.buckets).toEqual(Array.from({ length: 60 }, () => 2));
    expect(l.herds).toEqual(
      Array.from({ length: 50 }, (_, i) => ({
        at: new Date(from + i * MIN).toISOString(),
        fires: 2,
        jobs: ['tick-a', 'tick-b'],
      })),
    );
    expect((await load(a, '?hours=1&herd=3')).herds).toEqual([]);
    const day = await load(a);
    expect(day.buckets).toHaveLength(24 * 60);
    expect(sum(day.buckets)).toBe(2 * 24 * 60);
  });

  it("should follow a FIXED_RATE job's grid from its next fire", async () => {
    const l = await load(b, '?hours=2');
    const from = Date.parse(l.from);
    const fires: number[] = [];
    for (let t = rateNext; t < Date.parse(l.to); t += 900_000) fires.push(Math.floor((t - from) / MIN));
    expect(l.jobs).toBe(1);
    expect(sum(l.buckets)).toBe(fires.length);
    for (const m of fires) expect(l.buckets[m]).toBe(1);
  });

  it('should count a dense every-second job from its rate past its cap, say so, and answer within a second', async () => {
    const d = await appClient(node, 'sl-dense');
    await createJob(d, { code: 'every-second', triggerExpr: '* * * * * *' });
    await createJob(d, { code: 'hourly', triggerExpr: '0 0 * * * *' });
    try {
      const started = performance.now();
      const l = await load(d, '?hours=48');
      expect(performance.now() - started).toBeLessThan(1000);
      expect(l).toMatchObject({ jobs: 2, estimatedJobs: 1 });
      expect(l.buckets).toHaveLength(48 * 60);
      const from = Date.parse(l.from);
      const hourStarts = l.buckets.map((_, m) => (from + m * MIN) % 3_600_000 === 0);
      expect(l.buckets.filter((n, m) => n !== (hourStarts[m] ? 61 : 60))).toEqual([]);
      expect(l.herds.every((h) => h.fires === 2 && h.jobs.join() === 'every-second,hourly')).toBe(true);
    } finally {
      expect((await d.request('DELETE', '/api/jobs/every-second')).status).toBe(204);
    }
  });

  it("should show each app its own jobs' load, an admin the namespace's or one app's", async () => {
    const none = await load(await appClient(node, 'sl-none'), '?hours=1');
    expect(none).toMatchObject({ jobs: 0, estimatedJobs: 0, herds: [] });
    expect(sum(none.buckets)).toBe(0);
    expect((await load(admin, '?hours=1')).jobs).toBeGreaterThanOrEqual(3);
    expect((await load(admin, `?hours=1&appId=${a.appId}`)).jobs).toBe(2);
    expectProblem(await b.request('GET', `/api/schedules/load?appId=${a.appId}`), 403, { scope: 'admin' });
    const tasksOnly = await appClient(node, 'sl-tasks', [Scope.TASKS_READ]);
    expectProblem(await tasksOnly.request('GET', '/api/schedules/load'), 403, { scope: 'jobs:read' });
  });

  it.each([
    ['hours=0', 'hours'],
    ['hours=49', 'hours'],
    ['hours=1.5', 'hours'],
    ['hours=abc', 'hours'],
    ['herd=1', 'herd'],
    ['herd=100001', 'herd'],
    ['appId=x', 'appId'],
    ['span=2', 'span'],
  ])('should refuse ?%s with a 400 naming %s', async (query, field) => {
    expectProblem(await a.request('GET', `/api/schedules/load?${query}`), 400, { field });
  });
});
