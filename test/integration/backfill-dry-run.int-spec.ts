import { insertInstance } from '../utils/instance-rows.js';
import { createJob, type JobView } from '../utils/jobs.js';
import { deleteNamespaceRows, namespaceRows, rowsDiff } from '../utils/namespace-rows.js';
import { appClient, appIdOf, expectProblem, SHAPES } from '../utils/tenancy.js';
import { type AppClient, executorsBeat, signedClient, startNode, type TestNode } from '../utils/test-node.js';

type Backfill = { created: number; existing: number; fireTimes: string[] };
const HOUR = 3_600_000;

/**
 * POST /api/jobs/{id}/backfill with dryRun: true (docs/api.md "Jobs") on both shapes: the figures the backfill
 * itself then answers, the same 4xx, and nothing written (no instance, no audit row, nothing counted against the
 * owner's cap).
 */
describe.each(SHAPES)('backfill dry run (%s)', (_shape, env) => {
  let node: TestNode;
  let a: AppClient;
  let b: AppClient;
  let job: JobView;
  const top = Math.floor(Date.now() / HOUR) * HOUR - HOUR; // a past hour
  const range = (fromH: number, toH: number) => ({
    from: new Date(top - fromH * HOUR).toISOString(),
    to: new Date(top - toH * HOUR).toISOString(),
  });

  beforeAll(async () => {
    node = await startNode(env());
    if (node.config.shape === 'cluster') await executorsBeat(node, 1); // a backfill needs a live executor of noop
    a = await appClient(node, 'bf-a');
    b = await appClient(node, 'bf-b');
    job = await createJob(a, { code: 'hourly', triggerExpr: '0 0 * * * *', enabled: false });
  }, 60_000);

  afterAll(async () => {
    if (node?.config.shape === 'cluster')
      await deleteNamespaceRows(node.ds, node.config.namespace, { definitions: true });
    await node?.close();
  });

  const backfill = async (c: AppClient, ref: string, body: Record<string, unknown>) => {
    const res = await c.request<Backfill>('POST', `/api/jobs/${ref}/backfill`, body);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  };
  const rows = () => namespaceRows(node.ds, node.config.namespace, 'bf-');

  it('should answer what the backfill then does, and write nothing: no instance, no audit row', async () => {
    const before = await rows();
    const dry = await backfill(a, job.id, { ...range(5, 3), dryRun: true });
    expect(dry).toEqual({
      created: 3,
      existing: 0,
      fireTimes: [5, 4, 3].map((h) => new Date(top - h * HOUR).toISOString()),
    });
    expect(await backfill(a, job.id, { ...range(5, 3), dryRun: true })).toEqual(dry);
    expect(rowsDiff(before, await rows())).toEqual({});
    expect(await backfill(a, job.id, { ...range(5, 3), dryRun: false })).toEqual(dry);
    const wider = await backfill(a, 'hourly', { ...range(7, 3), dryRun: true });
    expect(wider).toMatchObject({ created: 2, existing: 3 });
    expect(wider.fireTimes).toHaveLength(5);
    expect(await backfill(a, 'hourly', range(7, 3))).toEqual(wider);
    expect(await backfill(a, 'hourly', { ...range(7, 3), dryRun: true })).toMatchObject({ created: 0, existing: 5 });
  });

  it('should count a fire that lacks a shard as one to create, as the backfill does', async () => {
    const sharded = await createJob(a, {
      code: 'sharded',
      triggerExpr: '0 0 * * * *',
      enabled: false,
      shardTotal: 2,
      routingStrategy: 'SHARDING_BROADCAST',
    });
    const ns = node.config.namespace;
    const at = (h: number) => top - h * HOUR;
    for (const shardIndex of [0, 1])
      await insertInstance(node.ds, { ns, appId: a.appId }, at(2), { jobId: sharded.id, shardIndex, shardTotal: 2 });
    await insertInstance(node.ds, { ns, appId: a.appId }, at(1), { jobId: sharded.id, shardIndex: 0, shardTotal: 2 });
    const dry = await backfill(a, 'sharded', { ...range(2, 0), dryRun: true });
    expect(dry).toMatchObject({ created: 2, existing: 1 });
    expect(await backfill(a, 'sharded', range(2, 0))).toEqual(dry);
    const shards = await node.ds.query('SELECT COUNT(*) AS n FROM job_instance WHERE job_id = ?', [sharded.id]);
    expect(Number(shards[0].n)).toBe(6);
  });

  it('should refuse a dry run as the backfill: the same 400s, 404s, and 429 over the cap', async () => {
    const later = { from: new Date(Date.now() - HOUR).toISOString(), to: new Date(Date.now() + HOUR).toISOString() };
    expectProblem(await a.request('POST', `/api/jobs/${job.id}/backfill`, { ...later, dryRun: true }), 400, {
      field: 'to',
    });
    const bad = { from: 'yesterday', to: range(1, 0).to, dryRun: true };
    expectProblem(await a.request('POST', `/api/jobs/${job.id}/backfill`, bad), 400, { field: 'from' });
    expectProblem(await a.request('POST', `/api/jobs/${job.id}/backfill`, { ...range(2, 1), dryRun: 'yes' }), 400, {
      field: 'dryRun',
    });
    // null is not false: it once made a real backfill (found by a hostile-tenant test).
    const before = await a.request<{ total: number }>('GET', `/api/jobs/${job.id}/instances`);
    expectProblem(await a.request('POST', `/api/jobs/${job.id}/backfill`, { ...range(2, 1), dryRun: null }), 400, {
      field: 'dryRun',
    });
    expect((await a.request<{ total: number }>('GET', `/api/jobs/${job.id}/instances`)).body.total).toBe(
      before.body.total,
    );
    const delay = await createJob(a, {
      code: 'delay',
      triggerType: 'FIXED_DELAY',
      triggerExpr: '60000',
      enabled: false,
    });
    expectProblem(await a.request('POST', `/api/jobs/${delay.id}/backfill`, { ...range(2, 1), dryRun: true }), 400, {
      field: 'triggerType',
    });
    expectProblem(await b.request('POST', `/api/jobs/${job.id}/backfill`, { ...range(2, 1), dryRun: true }), 404);
    expectProblem(await b.request('POST', '/api/jobs/hourly/backfill', { ...range(2, 1), dryRun: true }), 404);
  });

  it("should count nothing against the owner's cap: dry runs pass under it, one over it is a 429", async () => {
    const capped = await signedClient(node, appIdOf('bf-cap'), undefined, { maxUnfinishedTasks: 3 });
    await createJob(capped, { code: 'capped', triggerExpr: '0 0 * * * *', enabled: false });
    const refused = await capped.request('POST', '/api/jobs/capped/backfill', { ...range(5, 1), dryRun: true });
    expect(expectProblem(refused, 429)).toMatchObject({ code: 'TOO_MANY_UNFINISHED' });
    for (let i = 0; i < 3; i++)
      expect(await backfill(capped, 'capped', { ...range(2, 1), dryRun: true })).toMatchObject({ created: 2 });
    expect(await backfill(capped, 'capped', range(3, 1))).toMatchObject({ created: 3 });
    const [{ n }] = await node.ds.query('SELECT COUNT(*) AS n FROM job_instance WHERE app_id = ?', [capped.appId]);
    expect(Number(n)).toBe(3);
  });
});
