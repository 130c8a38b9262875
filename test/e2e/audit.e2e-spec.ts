import { AuditLogRepository, Scope } from '../../src/modules/metadata/index.js';
import { appClient, expectProblem, SHAPES, silentReceiver, WITH_SHELL } from '../utils/tenancy.js';
import { clusterEnv, startNode, TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';

type App = Awaited<ReturnType<typeof appClient>>;
type Row = {
  id: string;
  appId: string | null;
  action: string;
  targetType: string;
  targetId: string;
  before: unknown;
  after: unknown;
  createdAt: string;
};
type Page = { total: number; items: Row[]; nextCursor: string | null };
const TOKEN = 'Bearer top-secret-token-1';
const TOKEN2 = 'Bearer top-secret-token-2';
const secretParams = (url: string, token: string, extra: Record<string, unknown> = {}) => ({
  url,
  method: 'POST',
  headers: { Authorization: token, 'X-Trace': 'kept' },
  body: { deeper: { api_key: token }, ...extra },
});
const hourly = (code: string, params: unknown) => ({
  code,
  handler: 'http',
  triggerType: 'CRON',
  triggerExpr: '0 0 * * * *',
  params,
  timeoutMs: 600_000,
});

/**
 * Audit (docs/tenancy.md "Audit and redaction"): every mutation writes its row in the transaction of the change (who,
 * what, target, namespace, before/after with secrets redacted); GET /api/audit for admins, filtered and paged; a
 * failure of the audit insert leaves the change undone.
 */
describe.each(SHAPES)('audit (%s)', (_shape, env) => {
  let node: TestNode;
  let receiver: Awaited<ReturnType<typeof silentReceiver>>;
  let a: App;
  let admin: App;

  beforeAll(async () => {
    receiver = await silentReceiver();
    node = await startNode(env({ EXECUTOR_SHUTDOWN_GRACE_MS: '0' })); // calls to the silent receiver are left running
    a = await appClient(node, 'aud-a', WITH_SHELL);
    admin = await appClient(node, 'aud-admin', [Scope.ADMIN]);
  }, 60_000);
  afterAll(async () => {
    await node?.close();
    receiver?.close();
  });

  /** A RUNNING instance of job `id` (its call to the silent receiver never answers). */
  const running = async (id: string) => {
    const run = await a.request<{ instanceId: string }>('POST', `/api/jobs/${id}/trigger`, {});
    await waitFor(
      'the instance to run',
      async () =>
        (await a.request<{ status: string }>('GET', `/api/jobs/${id}/instances/${run.body.instanceId}`)).body.status ===
        'RUNNING',
    );
    return run.body.instanceId;
  };

  it('should write one row per mutation, with who, what, target and namespace, and no secret of the params', async () => {
    const job = await createJob(a, hourly('audited', secretParams(receiver.url, TOKEN)));
    expect(
      (await a.request('PATCH', `/api/jobs/${job.id}`, { params: secretParams(receiver.url, TOKEN2) })).status,
    ).toBe(200);
    expect((await a.request('POST', `/api/jobs/${job.id}/pause`)).status).toBe(200);
    expect((await a.request('POST', `/api/jobs/${job.id}/resume`)).status).toBe(200);
    const instanceId = await running(job.id);
    expect((await a.request('POST', `/api/jobs/${job.id}/instances/${instanceId}/cancel`)).status).toBe(200);
    expect(
      (
        await a.request('POST', `/api/jobs/${job.id}/trigger`, {
          params: secretParams(`${receiver.url}/t`, TOKEN, { password: 'pw-1' }),
        })
      ).status,
    ).toBe(202);
    const hourAgo = new Date(Date.now() - 3_600_000);
    expect(
      (
        await a.request('POST', `/api/jobs/${job.id}/backfill`, {
          from: new Date(hourAgo.getTime() - 3_600_000).toISOString(),
          to: hourAgo.toISOString(),
        })
      ).status,
    ).toBe(200);
    expect(
      (await a.request('POST', '/api/tasks', { requestId: 'aud-task', handler: 'noop', delayMs: 3_600_000 })).status,
    ).toBe(202);
    expect((await a.request('POST', '/api/tasks/aud-task/cancel')).status).toBe(200);
    expect(
      (
        await a.request('POST', '/api/jobs/import-crontab', {
          fileName: 'aud',
          content: 'API_TOKEN=abc\n0 1 * * * root /bin/true\n',
        })
      ).status,
    ).toBe(200);
    expect((await a.request('DELETE', `/api/jobs/${job.id}`)).status).toBe(204);

    const rows: Array<{
      action: string;
      app_id: string;
      namespace: string;
      target_type: string;
      before: string | null;
      after: string | null;
    }> = await node.ds.query(
      'SELECT action, app_id, namespace, target_type, `before`, `after` FROM audit_log WHERE app_id = ? ORDER BY created_at, id',
      [a.appId],
    );
    expect(rows.map((r) => `${r.action}:${r.target_type}`).sort()).toEqual([
      'CRONTAB_IMPORT:crontab',
      'INSTANCE_CANCEL:job',
      'JOB_BACKFILL:job',
      'JOB_CREATE:job',
      'JOB_CREATE:job',
      'JOB_DELETE:job',
      'JOB_PAUSE:job',
      'JOB_RESUME:job',
      'JOB_TRIGGER:job',
      'JOB_TRIGGER:job',
      'JOB_UPDATE:job',
      'TASK_CANCEL:task',
    ]);
    expect(new Set(rows.map((r) => r.namespace))).toEqual(new Set([node.config.namespace]));
    const text = JSON.stringify(rows);
    for (const secret of ['top-secret-token', 'pw-1']) expect(text).not.toContain(secret);
    const update = rows.find((r) => r.action === 'JOB_UPDATE');
    expect(JSON.parse(update?.after as string).params).toEqual({
      url: receiver.url,
      method: 'POST',
      headers: { Authorization: '[redacted]', 'X-Trace': 'kept' },
      body: { deeper: { api_key: '[redacted]' } },
    });
    expect(JSON.parse(update?.before as string).params.headers.Authorization).toBe('[redacted]');
    const created = rows.filter((r) => r.action === 'JOB_CREATE').map((r) => JSON.parse(r.after as string));
    expect(created.find((j) => j.handler === 'shell')?.params.env).toEqual({ API_TOKEN: '[redacted]' });
  }, 60_000);

  it('should serve the namespace audit to admins, newest first, filtered by app, job, action and time, and paged', async () => {
    const job = await createJob(a, hourly('filtered', { url: receiver.url }));
    const [create] = (await admin.request<Page>('GET', `/api/audit?jobId=${job.id}&action=JOB_CREATE`)).body.items;
    const t0 = new Date(Date.parse(create.createdAt) + 1).toISOString(); // just after the create (a PATCH takes longer than 1 ms)
    expect((await a.request('PATCH', `/api/jobs/${job.id}`, { description: 'one' })).status).toBe(200);
    expect((await admin.request('PATCH', `/api/jobs/${job.id}`, { description: 'two' })).status).toBe(200);
    const byJob = (await admin.request<Page>('GET', `/api/audit?jobId=${job.id}`)).body;
    expect(byJob.items.map((r) => [r.action, r.appId])).toEqual([
      ['JOB_UPDATE', admin.appId],
      ['JOB_UPDATE', a.appId],
      ['JOB_CREATE', a.appId],
    ]);
    expect(byJob.total).toBe(3);
    expect(byJob.items[0].after).toMatchObject({ description: 'two' });
    const stamps = byJob.items.map((r) => Date.parse(r.createdAt));
    expect([...stamps].sort((x, y) => y - x)).toEqual(stamps);
    expect((await admin.request<Page>('GET', `/api/audit?jobId=${job.id}&appId=${admin.appId}`)).body.total).toBe(1);
    expect(
      (await admin.request<Page>('GET', `/api/audit?jobId=${job.id}&action=JOB_CREATE`)).body.items.map(
        (r) => r.targetId,
      ),
    ).toEqual([job.id]);
    expect((await admin.request<Page>('GET', `/api/audit?jobId=${job.id}&from=${t0}`)).body.total).toBe(2);
    expect((await admin.request<Page>('GET', `/api/audit?jobId=${job.id}&to=${create.createdAt}`)).body.total).toBe(1);
    const second = (await admin.request<Page>('GET', `/api/audit?jobId=${job.id}&offset=1&limit=1`)).body;
    expect([second.total, second.items.map((r) => r.appId)]).toEqual([3, [a.appId]]);
    // Keyset pages: limit=1 three times through nextCursor gives the same rows as the one page, then null.
    const walked: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = (await admin.request<Page>('GET', `/api/audit?jobId=${job.id}&limit=1${q}`)).body;
      expect(page.total).toBe(3);
      walked.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
    }
    expect(walked).toEqual(byJob.items.map((r) => r.id));
    expectProblem(await admin.request('GET', '/api/audit?cursor=nope'), 400, { field: 'cursor' });
    const one = (await admin.request<Page>('GET', `/api/audit?jobId=${job.id}&limit=1`)).body.nextCursor as string;
    expectProblem(await admin.request('GET', `/api/audit?cursor=${one}&offset=1`), 400, { field: 'cursor' });
    expectProblem(await admin.request('GET', '/api/audit?from=yesterday'), 400, { field: 'from' });
    expectProblem(await admin.request('GET', `/api/audit?from=${t0}&to=2020-01-01T00:00:00Z`), 400, { field: 'to' });
    expectProblem(await admin.request('GET', '/api/audit?limit=501'), 400, { field: 'limit' });
    expectProblem(await admin.request('GET', '/api/audit?action=JOB_UPDATED'), 400, { field: 'action' }); // a typo found nothing, silently
    expectProblem(await admin.request('GET', '/api/audit?offset=100001'), 400, { field: 'offset' });
    expectProblem(await a.request('GET', '/api/audit'), 403, { scope: 'admin' });
  });

  it('should leave nothing changed when the audit insert fails after the change and before the commit', async () => {
    const job = (
      await a.request<{ id: string; version: number }>('POST', '/api/jobs', hourly('kept', { url: receiver.url }))
    ).body;
    const instanceId = await running(job.id);
    expect(
      (await a.request('POST', '/api/tasks', { requestId: 'kept-task', handler: 'noop', delayMs: 3_600_000 })).status,
    ).toBe(202);
    const other = await appClient(node, 'aud-other');
    const snapshot = async () =>
      JSON.stringify([
        await node.ds.query('SELECT * FROM job_definition WHERE app_id IN (?, ?) ORDER BY id', [a.appId, other.appId]),
        await node.ds.query('SELECT id, status, finished_at FROM job_instance WHERE app_id = ? ORDER BY id', [a.appId]),
        await node.ds.query('SELECT * FROM api_client WHERE app_id LIKE ? OR app_id = ? ORDER BY app_id', [
          'aud-new-%',
          other.appId,
        ]),
        // This namespace's only: other suites write audit rows into the shared database meanwhile.
        await node.ds.query('SELECT COUNT(*) AS n FROM audit_log WHERE namespace = ?', [node.config.namespace]),
      ]);
    const before = await snapshot();
    const repo = node.app.get(AuditLogRepository);
    const append = repo.append;
    repo.append = async () => {
      throw new Error('injected audit failure');
    };
    try {
      const attempts: Array<[App, string, string, unknown?]> = [
        [a, 'POST', '/api/jobs', hourly('never', { url: receiver.url })],
        [a, 'PATCH', `/api/jobs/${job.id}`, { description: 'never' }],
        [a, 'POST', `/api/jobs/${job.id}/pause`],
        [a, 'POST', `/api/jobs/${job.id}/trigger`, {}],
        [
          a,
          'POST',
          `/api/jobs/${job.id}/backfill`,
          { from: new Date(Date.now() - 7_200_000).toISOString(), to: new Date(Date.now() - 60_000).toISOString() },
        ],
        [a, 'POST', `/api/jobs/${job.id}/instances/${instanceId}/cancel`],
        [a, 'POST', '/api/tasks/kept-task/cancel'],
        [a, 'POST', '/api/jobs/import-crontab', { fileName: 'never', content: '0 1 * * * root /bin/true\n' }],
        [a, 'DELETE', `/api/jobs/${job.id}`],
        [admin, 'POST', '/api/clients', { appId: 'aud-new-1' }],
        [admin, 'PATCH', `/api/clients/${other.appId}`, { scopes: ['jobs:read'] }],
        [admin, 'POST', `/api/clients/${other.appId}/rotate-secret`],
      ];
      for (const [client, method, path, body] of attempts)
        expect([method, path, (await client.request(method, path, body)).status]).toEqual([method, path, 500]);
    } finally {
      repo.append = append;
    }
    expect(await snapshot()).toBe(before);
    await createJob(other, hourly('still-mine', { url: receiver.url })); // its scopes and secret as they were
    expect(
      (await a.request<{ status: string }>('POST', `/api/jobs/${job.id}/instances/${instanceId}/cancel`)).body.status,
    ).toBe('CANCELLED');
  }, 60_000);
});

describe('audit stays in its namespace (cluster)', () => {
  it("should not show an admin another namespace's rows", async () => {
    const home = await startNode(clusterEnv(uniqueNamespace('e2e-aud-home'), { ROLES: 'api', LOG_LEVEL: 'error' }));
    const away = await startNode(clusterEnv(uniqueNamespace('e2e-aud-away'), { ROLES: 'api', LOG_LEVEL: 'error' }));
    try {
      const a = await appClient(home, 'aud-ns');
      await createJob(a, { code: 'j', triggerType: 'FIXED_RATE', triggerExpr: '3600000', enabled: false });
      const homeAdmin = await appClient(home, 'aud-h', [Scope.ADMIN]);
      const awayAdmin = await appClient(away, 'aud-w', [Scope.ADMIN]);
      expect((await homeAdmin.request<Page>('GET', `/api/audit?appId=${a.appId}`)).body.total).toBe(1);
      expect((await awayAdmin.request<Page>('GET', `/api/audit?appId=${a.appId}`)).body).toEqual({
        total: 0,
        items: [],
        nextCursor: null,
      });
    } finally {
      await away.close();
      await home.close();
    }
  }, 60_000);
});
