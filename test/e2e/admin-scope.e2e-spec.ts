import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { Scope } from '../../src/modules/metadata/index.js';
import { appClient, expectProblem, SHAPES } from '../utils/tenancy.js';
import { clusterEnv, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';

type Job = { id: string; code: string; appId: string; enabled: boolean; description: string | null };
type App = TickwheelClient & { appId: string };

/**
 * `admin` sees and manages every app's jobs and tasks of its namespace (docs/tenancy.md "Scopes and admin"): by id
 * always, by code its own first, else the one app that has it (several: a 409 asking for `?appId=`); `?appId=` names
 * another app's task. Another app naming a foreign appId is a 403 naming `admin`.
 */
describe.each(SHAPES)('admin scope (%s)', (_shape, env) => {
  let node: TestNode;
  let a: App;
  let b: App;
  let admin: App;
  let jobA: Job;

  beforeAll(async () => {
    node = await startNode(env());
    [a, b, admin] = [
      await appClient(node, 'adm-a'),
      await appClient(node, 'adm-b'),
      await appClient(node, 'adm-x', [Scope.ADMIN]),
    ];
    jobA = await createJob(a, { code: 'report' });
    await createJob(b, { code: 'report' });
    await createJob(b, { code: 'b-only' });
    expect(
      (await a.request('POST', '/api/tasks', { requestId: 'a-task', handler: 'noop', delayMs: 3_600_000 })).status,
    ).toBe(202);
  }, 60_000);
  afterAll(async () => node?.close());

  it("should list every app's jobs of the namespace, or one app's with ?appId=", async () => {
    const all = (await admin.request<{ items: Job[] }>('GET', '/api/jobs?limit=500')).body.items;
    expect(
      all
        .filter((j) => j.appId === a.appId || j.appId === b.appId)
        .map((j) => `${j.appId}/${j.code}`)
        .sort(),
    ).toEqual([`${a.appId}/report`, `${b.appId}/b-only`, `${b.appId}/report`].sort());
    const onlyA = (await admin.request<{ total: number; items: Job[] }>('GET', `/api/jobs?appId=${a.appId}`)).body;
    expect(onlyA).toMatchObject({ total: 1, items: [{ id: jobA.id }] });
  });

  it('should name a job by id always, by code when one app has it, and ask for ?appId= when several do', async () => {
    expect((await admin.request<Job>('GET', `/api/jobs/${jobA.id}`)).body.appId).toBe(a.appId);
    expect((await admin.request<Job>('GET', '/api/jobs/b-only')).body.appId).toBe(b.appId);
    expect(expectProblem(await admin.request('GET', '/api/jobs/report'), 409, { field: 'appId' }).detail).toMatch(
      /appId/,
    );
    expect((await admin.request<Job>('GET', `/api/jobs/report?appId=${a.appId}`)).body.id).toBe(jobA.id);
    expectProblem(await admin.request('GET', `/api/jobs/${jobA.id}?appId=${b.appId}`), 404); // the id is not B's
  });

  it("should manage another app's job (pause, patch, trigger under the owner's app id), audited under the admin", async () => {
    expect((await admin.request<Job>('POST', `/api/jobs/${jobA.id}/pause`)).body.enabled).toBe(false);
    expect((await a.request<Job>('GET', `/api/jobs/${jobA.id}`)).body.enabled).toBe(false);
    expect(
      (await admin.request<Job>('PATCH', `/api/jobs/report?appId=${b.appId}`, { description: 'by admin' })).status,
    ).toBe(200);
    expect((await b.request<Job>('GET', '/api/jobs/report')).body.description).toBe('by admin');
    expect((await a.request<Job>('GET', '/api/jobs/report')).body.description).toBeNull();
    const fired = await admin.request<{ instanceId: string }>('POST', `/api/jobs/${jobA.id}/trigger`, {});
    expect(fired.status).toBe(202);
    const [row] = await node.ds.query('SELECT app_id FROM job_instance WHERE id = ?', [fired.body.instanceId]);
    expect(row.app_id).toBe(a.appId);
    const audit: Array<{ action: string; app_id: string }> = await node.ds.query(
      'SELECT action, app_id FROM audit_log WHERE target_id = ? ORDER BY created_at, action',
      [jobA.id],
    );
    expect(
      audit
        .filter((r) => r.app_id === admin.appId)
        .map((r) => r.action)
        .sort(),
    ).toEqual(['JOB_PAUSE', 'JOB_TRIGGER']);
  });

  it("should read and cancel another app's task with ?appId=, and refuse ?appId= of another app to a non-admin (403 naming admin)", async () => {
    expectProblem(await admin.request('GET', '/api/tasks/a-task'), 404); // not the admin's own
    expect((await admin.request<{ status: string }>('GET', `/api/tasks/a-task?appId=${a.appId}`)).body.status).toBe(
      'PENDING',
    );
    for (const [method, path] of [
      ['GET', `/api/tasks/a-task?appId=${a.appId}`],
      ['POST', `/api/tasks/a-task/cancel?appId=${a.appId}`],
      ['GET', `/api/jobs?appId=${a.appId}`],
      ['GET', `/api/jobs/${jobA.id}?appId=${a.appId}`],
      ['POST', `/api/jobs/${jobA.id}/pause?appId=${a.appId}`],
    ]) {
      expectProblem(await b.request(method, path), 403, { scope: 'admin' });
    }
    expect((await a.request('GET', `/api/tasks/a-task?appId=${a.appId}`)).status).toBe(200); // naming oneself is fine
    expect(
      (await admin.request<{ status: string }>('POST', `/api/tasks/a-task/cancel?appId=${a.appId}`)).body.status,
    ).toBe('CANCELLED');
    const [row] = await node.ds.query(
      "SELECT app_id FROM audit_log WHERE action = 'TASK_CANCEL' AND target_id = (SELECT id FROM job_instance WHERE app_id = ? AND request_id = 'a-task')",
      [a.appId],
    );
    expect(row.app_id).toBe(admin.appId);
  });

  it('should own what it creates, and need the shell scope like anyone (admin does not imply shell)', async () => {
    expect((await createJob(admin, { code: 'admins-own' })).appId).toBe(admin.appId);
    expectProblem(
      await admin.request('POST', '/api/tasks', { handler: 'shell', params: { argv: ['/bin/true'] } }),
      403,
      { scope: 'shell' },
    );
  });
});

describe('admin scope stops at its namespace (cluster)', () => {
  it("should not see or manage another namespace's jobs and tasks", async () => {
    const home = await startNode(clusterEnv(uniqueNamespace('e2e-adm-home'), { LOG_LEVEL: 'error' }));
    const away = await startNode(clusterEnv(uniqueNamespace('e2e-adm-away'), { LOG_LEVEL: 'error', ROLES: 'api' }));
    try {
      const a = await appClient(home, 'ns-a');
      const job = await createJob(a, { code: 'home-job' });
      expect(
        (await a.request('POST', '/api/tasks', { requestId: 'home-task', handler: 'noop', delayMs: 3_600_000 })).status,
      ).toBe(202);
      const elsewhere = await appClient(away, 'ns-adm', [Scope.ADMIN]); // an admin of the other namespace (same database)
      expect((await elsewhere.request<{ items: Job[] }>('GET', `/api/jobs?appId=${a.appId}`)).body.items).toEqual([]);
      for (const [method, path] of [
        ['GET', `/api/jobs/${job.id}`],
        ['POST', `/api/jobs/${job.id}/pause`],
        ['GET', `/api/tasks/home-task?appId=${a.appId}`],
        ['POST', `/api/tasks/home-task/cancel?appId=${a.appId}`],
      ]) {
        expectProblem(await elsewhere.request(method, path), 404);
      }
      expect((await a.request<{ status: string }>('GET', '/api/tasks/home-task')).body.status).toBe('PENDING');
      expect((await a.request<Job>('GET', `/api/jobs/${job.id}`)).body.enabled).toBe(true);
    } finally {
      await away.close();
      await home.close();
    }
  }, 60_000);
});
