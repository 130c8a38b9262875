import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { appClient, expectProblem, SHAPES, WITH_SHELL } from '../utils/tenancy.js';
import { clusterEnv, startNode, TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';

type Task = { status: string; error: string | null; attempt: number; attempts?: unknown[] };
const shellJob = (code: string, extra: Record<string, unknown> = {}) => ({
  code,
  handler: 'shell',
  triggerType: 'FIXED_RATE',
  triggerExpr: '3600000',
  params: { argv: ['/bin/true'] },
  enabled: false,
  ...extra,
});
/** argv appending a line to `file` (the side effect a run leaves). */
const touch = (file: string) => ({ argv: ['/bin/sh', '-c', `echo ran >> ${file}`] });
const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);

/**
 * The `shell` handler runs only for apps holding the `shell` scope (docs/tenancy.md "Shell isolation"): refused at
 * submit with a 403 naming `shell` in both shapes, before anything is written (admin does not imply it); and checked
 * again by the executor when an instance is about to run, so a revoked scope fails the next run without running it
 * and without a retry.
 */
describe.each(SHAPES)('shell scope (%s)', (_shape, env) => {
  let node: TestNode;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tw-shell-scope-'));
    chmodSync(dir, 0o777); // shell commands run as their app's own uid (README "The shell handler")
    node = await startNode(env({ TICKWHEEL_ALLOW_SHELL: 'true' }));
  }, 60_000);
  afterAll(async () => {
    await node?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should refuse shell tasks, batches, jobs, PATCHes to shell and crontab imports without the scope (403), writing nothing', async () => {
    const plain = await appClient(node, 'sh-plain');
    const job = await createJob(plain, { ...shellJob('own'), handler: 'noop', params: {} });
    const refused: Array<[string, string, unknown]> = [
      ['POST', '/api/tasks', { handler: 'shell', params: touch(join(dir, 'never')) }],
      [
        'POST',
        '/api/tasks/batch',
        { tasks: [{ handler: 'noop' }, { handler: 'shell', params: touch(join(dir, 'never')) }] },
      ],
      ['POST', '/api/jobs', shellJob('sh')],
      ['PATCH', `/api/jobs/${job.id}`, { handler: 'shell', params: { argv: ['/bin/true'] } }],
      ['POST', '/api/jobs/import-crontab', { fileName: 'f', content: '* * * * * root /bin/true\n', enable: false }],
    ];
    for (const [method, path, body] of refused) {
      const problem = expectProblem(await plain.request(method, path, body), 403, { scope: 'shell' });
      if (path.endsWith('batch')) expect(problem.detail).toContain('tasks[1].handler');
    }
    const [{ n }] = await node.ds.query(
      'SELECT (SELECT COUNT(*) FROM job_instance WHERE app_id = ?) + (SELECT COUNT(*) FROM job_definition WHERE app_id = ? AND handler <> ?) AS n',
      [plain.appId, plain.appId, 'noop'],
    );
    expect(Number(n)).toBe(0);
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });

  it("should refuse an admin without shell to run, resume, backfill or change another app's shell job", async () => {
    const owner = await appClient(node, 'sh-owner', WITH_SHELL);
    const admin = await appClient(node, 'sh-admin', [Scope.ADMIN]);
    const job = await createJob(owner, shellJob('sh'));
    for (const [method, path, body] of [
      ['POST', 'trigger', {}],
      ['POST', 'resume', undefined],
      ['PATCH', '', { description: 'x' }],
      ['POST', 'backfill', { from: '2026-01-01T00:00:00Z', to: '2026-01-01T01:00:00Z' }],
    ] as Array<[string, string, unknown]>) {
      expectProblem(await admin.request(method, `/api/jobs/${job.id}${path ? `/${path}` : ''}`, body), 403, {
        scope: 'shell',
      });
    }
    expect((await admin.request('POST', `/api/jobs/${job.id}/pause`)).status).toBe(200); // stopping it needs no shell
    expect(await node.ds.query('SELECT id FROM job_instance WHERE job_id = ?', [job.id])).toEqual([]);
  });

  it('should run a shell task of an app holding the scope, and fail one whose scope was revoked before it ran, without running or retrying it', async () => {
    const admin = await appClient(node, 'sh-adm2', [Scope.ADMIN]);
    const shelly = await appClient(node, 'sh-ok', WITH_SHELL);
    const ran = join(dir, 'task-ran');
    const ok = await shelly.request<{ requestId: string }>('POST', '/api/tasks', {
      handler: 'shell',
      params: touch(ran),
    });
    expect(ok.status).toBe(202);
    await waitFor(
      'the shell task to succeed',
      async () => (await shelly.request<Task>('GET', `/api/tasks/${ok.body.requestId}`)).body.status === 'SUCCESS',
    );
    expect(lines(ran)).toBe(1);

    const revoked = await appClient(node, 'sh-rev', WITH_SHELL);
    const never = join(dir, 'revoked-task');
    const late = await revoked.request<{ requestId: string }>('POST', '/api/tasks', {
      handler: 'shell',
      params: touch(never),
      delayMs: 1500,
      maxAttempts: 3,
    });
    expect(late.status).toBe(202);
    expect((await admin.request('PATCH', `/api/clients/${revoked.appId}`, { scopes: DEFAULT_SCOPES })).status).toBe(
      200,
    );
    let task: Task | undefined;
    await waitFor('the revoked shell task to end', async () =>
      ['SUCCESS', 'FAILED'].includes(
        (task = (await revoked.request<Task>('GET', `/api/tasks/${late.body.requestId}`)).body).status,
      ),
    );
    expect(task).toMatchObject({
      status: 'FAILED',
      attempt: 1,
      error: expect.stringMatching(/^SCOPE_REVOKED: app '.+' does not hold the shell scope/),
    });
    expect(task?.attempts).toHaveLength(1);
    expect(existsSync(never)).toBe(false);
  }, 60_000);

  it("should stop a shell job's fires once its owner's scope is revoked (the next run fails without running)", async () => {
    const admin = await appClient(node, 'sh-adm3', [Scope.ADMIN]);
    const owner = await appClient(node, 'sh-job', WITH_SHELL);
    const file = join(dir, 'job-ran');
    const job = (
      await owner.request<{ id: string }>(
        'POST',
        '/api/jobs',
        shellJob('every-second', { triggerExpr: '1000', params: touch(file), enabled: true }),
      )
    ).body;
    await waitFor('a fire to run', async () => lines(file) >= 1, 20_000);
    expect((await admin.request('PATCH', `/api/clients/${owner.appId}`, { scopes: DEFAULT_SCOPES })).status).toBe(200);
    const failed = async () =>
      (
        await node.ds.query(
          "SELECT COUNT(*) AS n FROM job_instance WHERE job_id = ? AND status = 'FAILED' AND error LIKE 'SCOPE_REVOKED%'",
          [job.id],
        )
      )[0].n;
    await waitFor('a fire to fail on the revoked scope', async () => Number(await failed()) >= 1, 20_000);
    const after = lines(file);
    await waitFor('two more fires to fail', async () => Number(await failed()) >= 3, 20_000);
    expect(lines(file)).toBe(after);
    const [{ app_id: appId }] = await node.ds.query('SELECT app_id FROM job_instance WHERE job_id = ? LIMIT 1', [
      job.id,
    ]);
    expect(appId).toBe(owner.appId); // a fire carries its job owner's app id
    await owner.request('POST', `/api/jobs/${job.id}/pause`);
  }, 90_000);
});

describe('shell is never accepted to wait for an executor (cluster)', () => {
  it('should refuse shell tasks, enabled shell jobs and their runs with a 400 naming handler until an executor advertises shell', async () => {
    const ns = uniqueNamespace('e2e-shell-wait');
    const api = await startNode(clusterEnv(ns, { ROLES: 'api', LOG_LEVEL: 'error' }));
    let executor: TestNode | undefined;
    try {
      const shelly = await appClient(api, 'sh-wait', WITH_SHELL);
      const noExecutor = /no live executor advertises handler 'shell'/;
      expect(
        expectProblem(
          await shelly.request('POST', '/api/tasks', { handler: 'shell', params: { argv: ['/bin/true'] } }),
          400,
          { field: 'handler' },
        ).detail,
      ).toMatch(noExecutor);
      expectProblem(
        await shelly.request('POST', '/api/tasks/batch', {
          tasks: [{ handler: 'shell', params: { argv: ['/bin/true'] } }],
        }),
        400,
        { field: 'tasks[0].handler' },
      );
      expectProblem(await shelly.request('POST', '/api/jobs', shellJob('on', { enabled: true })), 400, {
        field: 'handler',
      });
      expectProblem(
        await shelly.request('POST', '/api/jobs/import-crontab', {
          fileName: 'f',
          content: '* * * * * root /bin/true\n',
          enable: true,
        }),
        400,
        { field: 'handler' },
      );
      await createJob(shelly, shellJob('off')); // paused: nothing waits
      expectProblem(await shelly.request('POST', '/api/jobs/off/resume'), 400, { field: 'handler' });
      expectProblem(await shelly.request('POST', '/api/jobs/off/trigger', {}), 400, { field: 'handler' });
      expect(await api.ds.query('SELECT id FROM job_instance WHERE app_id = ?', [shelly.appId])).toEqual([]);

      executor = await startNode(
        clusterEnv(ns, { ROLES: 'executor', TICKWHEEL_ALLOW_SHELL: 'true', LOG_LEVEL: 'error' }),
      );
      await waitFor('the shell executor to be live', async () =>
        (
          await shelly.request<{ items: Array<{ handlers: string[] }> }>('GET', '/api/nodes?handler=shell')
        ).body.items.some((n) => n.handlers.includes('shell')),
      );
      expect(
        (await shelly.request('POST', '/api/tasks', { handler: 'shell', params: { argv: ['/bin/true'] } })).status,
      ).toBe(202);
      expectProblem(await shelly.request('POST', '/api/tasks', { handler: 'shell', params: { argv: 'ls -l' } }), 400, {
        field: 'params.argv',
      });
      expect((await shelly.request('POST', '/api/jobs/off/trigger', {})).status).toBe(202);
    } finally {
      await executor?.close();
      await api.close();
    }
  }, 60_000);
});
