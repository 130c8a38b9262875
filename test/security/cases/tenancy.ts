import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DEFAULT_SCOPES } from '../../../src/modules/metadata/index.js';
import { concrete, ROUTES } from '../../utils/routes.js';
import { type Hostile, refused, TOKEN } from '../harness.js';
import { neverFiringJob } from '../../utils/jobs.js';
import { deleteNamespaceRows } from '../../utils/namespace-rows.js';

type Call = [method: string, path: string, body?: unknown];
const day = () => ({
  from: new Date(Date.now() - 86_400_000).toISOString(),
  to: new Date(Date.now() - 60_000).toISOString(),
});

/** Every route that names one job (by `ref`), with a body that would pass validation. */
function jobRoutes(ref: string, instanceId: string): Call[] {
  return [
    ['GET', `/api/jobs/${ref}`],
    ['GET', `/api/jobs/${ref}/instances`],
    ['GET', `/api/jobs/${ref}/instances/${instanceId}`],
    ['POST', `/api/jobs/${ref}/pause`],
    ['POST', `/api/jobs/${ref}/resume`],
    ['PATCH', `/api/jobs/${ref}`, { params: { url: 'http://evil.example/' } }],
    ['POST', `/api/jobs/${ref}/trigger`, { params: { stolen: true } }],
    ['POST', `/api/jobs/${ref}/backfill`, day()],
    ['POST', `/api/jobs/${ref}/instances/${instanceId}/cancel`],
    ['DELETE', `/api/jobs/${ref}`],
  ];
}

/**
 * Tenancy (a job belongs to the app that created it), scopes and the shell handler (docs/tenancy.md "Shell
 * isolation"): another app's job is a 404 on every route, by id or code or through an instance id; a route
 * outside the caller's scopes is a 403 naming the scope; `?appId=` is for admins; an admin stays in its namespace;
 * shell work needs the `shell` scope (403) and a live shell executor (400). Nothing is written by any of them.
 */
export function tenancyCases(h: Hostile): void {
  it.each(['id', 'code'] as const)("[tenancy] every route B aims at A's job by %s is a 404 that leaks nothing", (by) =>
    h.unchanged(async () => {
      for (const [method, path, body] of jobRoutes(by === 'id' ? h.jobA.id : h.jobA.code, h.instanceA)) {
        const problem = refused(await h.b.request(method, path, body), 404, 'NOT_FOUND');
        expect(JSON.stringify(problem)).not.toContain('secret-token');
      }
      expect((await h.b.request('GET', '/api/jobs')).body).toMatchObject({ items: [{ id: h.jobB.id }] });
    }),
  );

  it("[tenancy] A's job instance named through B's own job, and A's fire or task named as B's task, are 404s", () =>
    h.unchanged(async () => {
      const taskInstance = (await h.a.getTask(h.taskA)).body.instanceId as string;
      for (const id of [h.instanceA, taskInstance]) {
        refused(await h.b.request('GET', `/api/jobs/${h.jobB.id}/instances/${id}`), 404, 'NOT_FOUND');
        refused(await h.b.request('POST', `/api/jobs/${h.jobB.id}/instances/${id}/cancel`), 404, 'NOT_FOUND');
      }
      const fire = (await h.a.request<{ requestId: string }>('GET', `/api/jobs/${h.jobA.id}/instances/${h.instanceA}`))
        .body.requestId;
      for (const requestId of [h.taskA, fire, h.instanceA]) {
        refused(await h.b.request('GET', `/api/tasks/${requestId}`), 404, 'NOT_FOUND');
        refused(await h.b.request('POST', `/api/tasks/${requestId}/cancel`), 404, 'NOT_FOUND');
      }
    }));

  it.each(ROUTES.map(([m, p, s, b]) => [m, p, s, b] as const))(
    '[scopes] %s %s without %s is a 403 naming it',
    (method, path, scope, body) =>
      h.unchanged(async () => {
        // h.a holds the default scopes only: it lacks admin and worker (an admin grants that one)
        const without = h.lacking.get(scope) ?? h.a;
        refused(await without.request(method, concrete(path), body?.()), 403, 'FORBIDDEN', { scope });
        refused(await h.bare.request(method, concrete(path), body?.()), 403, 'FORBIDDEN', { scope });
      }),
  );

  it('[scopes] a non-admin naming another app with ?appId= is a 403 naming admin, on every route that takes it', () =>
    h.unchanged(async () => {
      const calls: Call[] = [
        ...jobRoutes(h.jobA.id, h.instanceA),
        ['GET', '/api/jobs'],
        ['GET', `/api/tasks/${h.taskA}`],
        ['POST', `/api/tasks/${h.taskA}/cancel`],
        ['GET', '/api/tasks'],
        ['GET', '/api/overview'],
        ['GET', '/api/schedules/load'],
        ['GET', '/api/callbacks/deliveries'],
        ['GET', '/api/notifications'],
      ];
      for (const [method, path, body] of calls)
        refused(await h.b.request(method, `${path}?appId=${h.a.appId}`, body), 403, 'FORBIDDEN', { scope: 'admin' });
    }));

  it("[tenancy] B's lists and figures hold none of A's rows; whoami answers any signed caller, even one with no scope", () =>
    h.unchanged(async () => {
      const taskA = (await h.a.getTask(h.taskA)).body.instanceId as string;
      const tasks = await h.b.request<{ items: Array<{ instanceId: string }> }>('GET', '/api/tasks?limit=500');
      expect(tasks.status).toBe(200);
      expect(tasks.body.items.map((t) => t.instanceId)).not.toContain(taskA);
      const jobs = await h.b.request<{ items: Array<{ id: string }> }>('GET', `/api/jobs?q=${h.jobA.code}`);
      expect(jobs.body.items.map((j) => j.id)).not.toContain(h.jobA.id);
      const sent = await h.b.request<{ items: Array<{ instanceId: string }> }>('GET', '/api/callbacks/deliveries');
      expect(sent.body.items.map((d) => d.instanceId)).not.toContain(taskA);
      const overview = await h.b.request<{ runningNow: Array<{ appId: string }> }>('GET', '/api/overview');
      expect(overview.body.runningNow.filter((r) => r.appId !== h.b.appId)).toEqual([]);
      const load = await h.admin.request<{ jobs: number }>('GET', `/api/schedules/load?appId=${h.a.appId}&hours=1`);
      expect(load.status).toBe(200);
      expect(await h.bare.request('GET', '/api/whoami')).toMatchObject({
        status: 200,
        body: { appId: h.bare.appId, scopes: [], admin: false },
      });
    }));

  it('[scopes] a non-admin cannot raise its own scopes or limits, rotate its secret, or make a client (403 naming admin)', () =>
    h.unchanged(async () => {
      const self = `/api/clients/${h.a.appId}`;
      const calls: Call[] = [
        ['PATCH', self, { scopes: [...DEFAULT_SCOPES, 'admin', 'shell'] }],
        ['PATCH', self, { rateLimit: 0, maxUnfinishedTasks: 0 }],
        ['PATCH', self, { egressAllow: ['*'] }],
        ['GET', self],
        ['POST', `${self}/rotate-secret`],
        ['POST', '/api/clients', { appId: `${h.prefix}-mine`, scopes: ['admin'] }],
        ['GET', '/api/audit'],
      ];
      for (const [method, path, body] of calls)
        refused(await h.a.request(method, path, body), 403, 'FORBIDDEN', { scope: 'admin' });
    }));

  it("[tenancy] an admin naming A's job under another owner (?appId=B), or an app that has none, gets a 404", () =>
    h.unchanged(async () => {
      for (const [method, path, body] of jobRoutes(h.jobA.id, h.instanceA)) {
        refused(await h.admin.request(method, `${path}?appId=${h.b.appId}`, body), 404, 'NOT_FOUND');
      }
      refused(await h.admin.request('GET', `/api/tasks/${h.taskA}?appId=${h.b.appId}`), 404, 'NOT_FOUND');
    }));

  if (h.shape === 'cluster') {
    it("[tenancy] an admin does not reach another namespace's job or task, by id or with ?appId=", async () => {
      const other = `${h.namespace}-other`;
      const jobId = await copyRow(h.node.ds, 'job_definition', h.jobA.id, {
        namespace: other,
        code: `${h.jobA.code}-x`,
      });
      const taskId = (await h.a.getTask(h.taskA)).body.instanceId as string;
      const requestId = `${h.prefix}-elsewhere`;
      await copyRow(h.node.ds, 'job_instance', taskId, { namespace: other, request_id: requestId });
      try {
        await h.unchanged(async () => {
          for (const [method, path, body] of jobRoutes(jobId, h.instanceA))
            refused(await h.admin.request(method, path, body), 404, 'NOT_FOUND');
          refused(await h.admin.request('GET', `/api/tasks/${requestId}?appId=${h.a.appId}`), 404, 'NOT_FOUND');
          refused(await h.admin.request('POST', `/api/tasks/${requestId}/cancel?appId=${h.a.appId}`), 404, 'NOT_FOUND');
        });
        const [row] = await h.node.ds.query('SELECT params FROM job_definition WHERE id = ?', [jobId]);
        expect(JSON.parse(row.params)).toEqual({ headers: { Authorization: TOKEN } });
      } finally {
        await deleteNamespaceRows(h.node.ds, other, { definitions: true });
      }
    });
  }

  describe('the shell handler', () => {
    const argv = { argv: ['/bin/sh', '-c', 'cat /proc/$PPID/environ'] };
    const crontab = (enable: boolean) => ({
      fileName: 'hx',
      content: '* * * * * root cat /proc/$PPID/environ\n',
      enable,
    });

    it('[shell] shell work without the shell scope is a 403 naming shell, in every form', () =>
      h.unchanged(async () => {
        const calls: Call[] = [
          ['POST', '/api/tasks', { handler: 'shell', params: argv }],
          ['POST', '/api/tasks/batch', { tasks: [{ handler: 'noop' }, { handler: 'shell', params: argv }] }],
          ['POST', '/api/jobs', { ...neverFiringJob('sh', 'shell'), enabled: false, params: argv }],
          ['PATCH', `/api/jobs/${h.jobA.id}`, { handler: 'shell', params: argv }],
          ['POST', '/api/jobs/import-crontab', crontab(false)],
        ];
        for (const [method, path, body] of calls)
          refused(await h.a.request(method, path, body), 403, 'FORBIDDEN', { scope: 'shell' });
        for (const [method, path, body] of [
          ['POST', 'trigger', {}],
          ['POST', 'resume'],
          ['PATCH', '', { params: argv }],
          ['POST', 'backfill', day()],
        ] as Call[]) {
          refused(
            await h.admin.request(method, `/api/jobs/${h.shellJob.id}${path ? `/${path}` : ''}`, body),
            403,
            'FORBIDDEN',
            { scope: 'shell' },
          ); // admin does not imply shell
        }
      }));

    it('[shell] with the scope but no executor that runs shell, shell work is a 400 naming the handler', () =>
      h.unchanged(async () => {
        const calls: Array<[...Call, string]> = [
          ['POST', '/api/tasks', { handler: 'shell', params: argv }, 'handler'],
          ['POST', '/api/tasks/batch', { tasks: [{ handler: 'shell', params: argv }] }, 'tasks[0].handler'],
          ['POST', '/api/jobs', { ...neverFiringJob('sh-on', 'shell'), params: argv }, 'handler'],
          ['POST', `/api/jobs/${h.shellJob.id}/trigger`, {}, 'handler'],
          ['POST', `/api/jobs/${h.shellJob.id}/resume`, undefined, 'handler'],
          ['POST', '/api/jobs/import-crontab', crontab(true), 'handler'],
        ];
        for (const [method, path, body, field] of calls)
          refused(await h.shell.request(method, path, body), 400, 'VALIDATION', { field });
      }));
  });
}

/** Inserts a copy of row `id` of `table` with a new id and `changes` (column → value); returns the new id. */
export async function copyRow(
  ds: DataSource,
  table: string,
  id: string,
  changes: Record<string, unknown>,
): Promise<string> {
  const [row] = await ds.query(`SELECT * FROM ${table} WHERE id = ?`, [id]);
  const copy = { ...row, ...changes, id: randomUUID() };
  const columns = Object.keys(copy);
  await ds.query(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    columns.map((c) => copy[c]),
  );
  return copy.id;
}
