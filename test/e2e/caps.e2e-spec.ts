import { Scope } from '../../src/modules/metadata/index.js';
import { appClient, expectProblem, SHAPES, WITH_SHELL } from '../utils/tenancy.js';
import { startNode, TestNode, waitFor } from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';

const job = (code: string) => ({
  code,
  handler: 'noop',
  triggerType: 'FIXED_RATE',
  triggerExpr: '3600000',
  enabled: false,
});
const later = (requestId: string) => ({ requestId, handler: 'noop', delayMs: 3_600_000 });

/**
 * Per-app caps (docs/tenancy.md "Bounds per app"): MAX_JOBS_PER_APP (exact, counted under a lock of the client row)
 * answers 409 naming maxJobs; MAX_UNFINISHED_TASKS_PER_APP answers 429 with Retry-After (backpressure); each is
 * overridden per client (null = the default, 0 = no limit).
 */
describe.each(SHAPES)('per-app caps (%s)', (_shape, env) => {
  let node: TestNode;
  let admin: Awaited<ReturnType<typeof appClient>>;
  beforeAll(async () => {
    node = await startNode(env({ MAX_JOBS_PER_APP: '3', MAX_UNFINISHED_TASKS_PER_APP: '5' }));
    admin = await appClient(node, 'cap-admin', [Scope.ADMIN]);
  }, 60_000);
  afterAll(async () => node?.close());

  const owned = async (appId: string) =>
    Number((await node.ds.query('SELECT COUNT(*) AS n FROM job_definition WHERE app_id = ?', [appId]))[0].n);

  it('should refuse a job past the cap with a 409 naming maxJobs, per app, and take one again after a delete', async () => {
    const a = await appClient(node, 'cap-a');
    const b = await appClient(node, 'cap-b');
    for (const code of ['j1', 'j2', 'j3']) expect((await a.request('POST', '/api/jobs', job(code))).status).toBe(201);
    const problem = expectProblem(await a.request('POST', '/api/jobs', job('j4')), 409, { field: 'maxJobs' });
    expect(problem.detail).toMatch(/owns 3 jobs/);
    expect((await b.request('POST', '/api/jobs', job('j4'))).status).toBe(201); // another app's count is its own
    expect((await a.request('DELETE', '/api/jobs/j1')).status).toBe(204);
    expect((await a.request('POST', '/api/jobs', job('j4'))).status).toBe(201);
    expect(await owned(a.appId)).toBe(3);
  });

  it('should hold the cap exactly under concurrent creates', async () => {
    const a = await appClient(node, 'cap-race');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => a.request('POST', '/api/jobs', job(`r${i}`))),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409]);
    expect(await owned(a.appId)).toBe(3);
  });

  it("should take the client's own maxJobs over the setting (0 = no limit), and refuse a crontab import past it whole", async () => {
    const a = await appClient(node, 'cap-own', WITH_SHELL);
    expect((await admin.request('PATCH', `/api/clients/${a.appId}`, { maxJobs: 4 })).status).toBe(200);
    for (const code of ['o1', 'o2', 'o3', 'o4'])
      expect((await a.request('POST', '/api/jobs', job(code))).status).toBe(201);
    expectProblem(await a.request('POST', '/api/jobs', job('o5')), 409, { field: 'maxJobs' });
    expect((await admin.request('PATCH', `/api/clients/${a.appId}`, { maxJobs: 0 })).status).toBe(200);
    for (const code of ['o5', 'o6']) expect((await a.request('POST', '/api/jobs', job(code))).status).toBe(201);
    expect((await admin.request('PATCH', `/api/clients/${a.appId}`, { maxJobs: 7 })).status).toBe(200);
    const crontab = ['0 1 * * * root /bin/true', '0 2 * * * root /bin/true'].join('\n');
    expectProblem(await a.request('POST', '/api/jobs/import-crontab', { fileName: 'two', content: crontab }), 409, {
      field: 'maxJobs',
    });
    expect(await owned(a.appId)).toBe(6); // neither entry written
  });

  it('should refuse tasks past the unfinished cap with a 429 and Retry-After, single or batch, and take them again once some end', async () => {
    const a = await appClient(node, 'cap-t');
    for (let i = 0; i < 5; i++) expect((await a.request('POST', '/api/tasks', later(`t${i}`))).status).toBe(202);
    const over = await a.request('POST', '/api/tasks', later('t5'));
    expect(expectProblem(over, 429).code).toBe('TOO_MANY_UNFINISHED');
    expect(over.headers.get('retry-after')).toBe('1');
    expectProblem(await a.request('POST', '/api/tasks/batch', { tasks: [later('t5')] }), 429);
    expect((await (await appClient(node, 'cap-t2')).request('POST', '/api/tasks', later('x'))).status).toBe(202); // per app

    for (const id of ['t0', 't1']) expect((await a.request('POST', `/api/tasks/${id}/cancel`)).status).toBe(200);
    // The count is read again at most once a second: until then the two cancelled tasks still count.
    await waitFor(
      'a task to be taken again',
      async () => (await a.request('POST', '/api/tasks', later('t5'))).status === 202,
      10_000,
    );
    expectProblem(await a.request('POST', '/api/tasks/batch', { tasks: [later('b1'), later('b2')] }), 429); // 4 + 2 > 5: refused whole
    expect((await a.request('POST', '/api/tasks', later('t6'))).status).toBe(202);
    const [{ n }] = await node.ds.query(
      "SELECT COUNT(*) AS n FROM job_instance WHERE app_id = ? AND status = 'PENDING'",
      [a.appId],
    );
    expect(Number(n)).toBe(5);
    expect((await admin.request('PATCH', `/api/clients/${a.appId}`, { maxUnfinishedTasks: 0 })).status).toBe(200);
    expect((await a.request('POST', '/api/tasks/batch', { tasks: [later('b1'), later('b2')] })).status).toBe(202);
  });

  it("should refuse a trigger-now or a backfill whose instances would take the job owner's app past its cap, writing nothing", async () => {
    // One request made up to 1,000 instances (a trigger of a 1000-shard job) or 10,000 (a backfill), whatever the cap.
    const a = await appClient(node, 'cap-fire');
    const hourly = (code: string, shardTotal: number) => ({
      ...job(code),
      triggerType: 'CRON',
      triggerExpr: '0 0 * * * *',
      routingStrategy: 'SHARDING_BROADCAST',
      shardTotal,
    });
    const wide = await createJob(a, hourly('wide', 6));
    const one = await createJob(a, hourly('one', 1));
    const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
    const fires = (n: number) => ({
      from: new Date(hour - (n - 1) * 3_600_000).toISOString(),
      to: new Date(hour).toISOString(),
    }); // n hourly fires
    const instances = async () =>
      Number((await node.ds.query('SELECT COUNT(*) AS n FROM job_instance WHERE app_id = ?', [a.appId]))[0].n);

    for (const [path, body] of [
      [`/api/jobs/${wide.id}/trigger`, {}],
      [`/api/jobs/${one.id}/backfill`, fires(6)],
    ] as const) {
      const over = await a.request('POST', path, body);
      expect(expectProblem(over, 429).code).toBe('TOO_MANY_UNFINISHED');
      expect(over.headers.get('retry-after')).toBe('1');
    }
    expect(await instances()).toBe(0);
    expect(
      Number(
        (
          await node.ds.query(
            "SELECT COUNT(*) AS n FROM audit_log WHERE app_id = ? AND action IN ('JOB_TRIGGER', 'JOB_BACKFILL')",
            [a.appId],
          )
        )[0].n,
      ),
    ).toBe(0);
    // The owner's cap counts, whoever asks: an admin triggering a's job meets a's own cap of 3.
    expect((await admin.request('PATCH', `/api/clients/${a.appId}`, { maxUnfinishedTasks: 3 })).status).toBe(200);
    const four = await createJob(a, hourly('four', 4));
    expect(expectProblem(await admin.request('POST', `/api/jobs/${four.id}/trigger`, {}), 429).code).toBe(
      'TOO_MANY_UNFINISHED',
    );
    expect(await instances()).toBe(0);
    expect((await a.request<{ created: number }>('POST', `/api/jobs/${one.id}/backfill`, fires(3))).body.created).toBe(
      3,
    ); // within the cap
  });
});
