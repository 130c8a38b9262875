import { appClient, expectProblem, SHAPES, silentReceiver, WITH_SHELL } from '../utils/tenancy.js';
import { startNode, TestNode, waitFor } from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';

type Job = Record<string, unknown> & { id: string; code: string; appId: string; version: number };
type Instance = { instanceId: string; requestId: string; status: string };
const TOKEN = 'Bearer a-very-secret-token';
const CRONTAB = '0 3 * * * root /bin/echo from-a\n';

/**
 * A job belongs to the app that created it (docs/tenancy.md "Apps, namespaces and ownership"): app B lists and reads
 * app A's job (a bearer token in params.headers included), reads its instances and results, pauses, resumes, PATCHes,
 * triggers it with its own params, backfills it, cancels a running instance of it, imports crontab entries over it
 * and deletes it. Every one is a 404 (or an empty list), and A's job is as it was: read back, no instance or audit
 * row by B.
 */
describe.each(SHAPES)('a job belongs to the app that created it (%s)', (_shape, env) => {
  let node: TestNode;
  let receiver: { url: string; close(): void };

  beforeAll(async () => {
    receiver = await silentReceiver(); // A's instance stays RUNNING while B aims at it
    node = await startNode(env());
  }, 60_000);
  afterAll(async () => {
    await node?.close();
    receiver?.close();
  });

  it("should answer 404 to every route app B aims at app A's job, and leave it, its instances and the audit log as they were", async () => {
    const a = await appClient(node, 'own-a', WITH_SHELL);
    const b = await appClient(node, 'own-b', WITH_SHELL);
    const job = await createJob(a, {
      code: 'nightly',
      handler: 'http',
      triggerType: 'CRON',
      triggerExpr: '0 0 3 * * *',
      params: { url: `${receiver.url}/a`, headers: { Authorization: TOKEN } },
    });
    const run = await a.request<Instance>('POST', `/api/jobs/${job.id}/trigger`, {});
    expect(run.status).toBe(202);
    const running = `/api/jobs/${job.id}/instances/${run.body.instanceId}`;
    await waitFor(
      "A's instance to run",
      async () => (await a.request<Instance>('GET', running)).body.status === 'RUNNING',
    );
    expect(
      (
        await a.request<{ created: string[] }>('POST', '/api/jobs/import-crontab', {
          fileName: 'shared',
          content: CRONTAB,
        })
      ).body.created,
    ).toEqual(['shared-L1']);

    const read = async (ref: string) => (await a.request<Job>('GET', `/api/jobs/${ref}`)).body;
    const before = {
      job: await read(job.id),
      imported: await read('shared-L1'),
      rows: await instanceRows(node, job.id),
    };
    expect(before.job.params).toEqual({ url: `${receiver.url}/a`, headers: { Authorization: TOKEN } });

    const day = new Date(Date.now() - 86_400_000).toISOString();
    for (const ref of [job.id, job.code]) {
      const attempts: Array<[string, string, unknown?]> = [
        ['GET', `/api/jobs/${ref}`],
        ['GET', `/api/jobs/${ref}/instances`],
        ['GET', `/api/jobs/${ref}/instances/${run.body.instanceId}`],
        ['POST', `/api/jobs/${ref}/pause`],
        ['POST', `/api/jobs/${ref}/resume`],
        ['PATCH', `/api/jobs/${ref}`, { params: { url: 'http://evil.example/' } }],
        ['POST', `/api/jobs/${ref}/trigger`, { params: { url: 'http://evil.example/' } }],
        ['POST', `/api/jobs/${ref}/backfill`, { from: day, to: new Date().toISOString() }],
        ['POST', `/api/jobs/${ref}/instances/${run.body.instanceId}/cancel`],
        ['DELETE', `/api/jobs/${ref}`],
      ];
      for (const [method, path, body] of attempts) {
        const res = await b.request(method, path, body);
        expectProblem(res, 404);
        expect(JSON.stringify(res.body)).not.toContain('secret-token');
      }
    }
    expectProblem(await b.request('GET', `/api/tasks/${run.body.requestId}`), 404); // A's fire is not B's task either
    expect((await b.request('GET', '/api/jobs')).body).toEqual({ total: 0, items: [] });
    const imported = await b.request<{ created: string[]; updated: string[] }>('POST', '/api/jobs/import-crontab', {
      fileName: 'shared',
      content: CRONTAB,
    });
    expect(imported.body).toMatchObject({ created: ['shared-L1'], updated: [] }); // B's own job of that code

    expect(await read(job.id)).toEqual({ ...before.job, nextFireTimes: expect.any(Array) });
    expect(await read('shared-L1')).toEqual({ ...before.imported, nextFireTimes: expect.any(Array) });
    expect(await instanceRows(node, job.id)).toEqual(before.rows);
    expect((await a.request<Instance>('GET', running)).body.status).toBe('RUNNING');
    const byB: unknown[] = await node.ds.query(
      'SELECT action FROM audit_log WHERE app_id = ? AND target_id IN (?, ?)',
      [b.appId, job.id, before.imported.id],
    );
    expect(byB).toEqual([]);
    const listB = (await b.request<{ items: Job[] }>('GET', '/api/jobs')).body.items;
    expect(listB.map((j) => [j.code, j.appId])).toEqual([['shared-L1', b.appId]]);
    const listA = (await a.request<{ items: Job[] }>('GET', '/api/jobs')).body.items;
    expect(listA.map((j) => j.appId)).toEqual([a.appId, a.appId]); // a job shows its owner
    expect((await a.request<Instance>('POST', `${running}/cancel`)).body.status).toBe('CANCELLED');
  }, 90_000);
});

/** Every instance row of a job: id, app, status and params (what B must not have added or changed). */
function instanceRows(node: TestNode, jobId: string): Promise<unknown[]> {
  return node.ds.query(
    'SELECT id, app_id, status, params, trigger_source FROM job_instance WHERE job_id = ? ORDER BY id',
    [jobId],
  );
}
