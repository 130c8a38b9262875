import { TickwheelClient, TickwheelResponse } from '../../src/client/tickwheel-client.js';
import { BOUNDS } from '../../src/common/index.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import {
  clusterEnv,
  signedClient,
  standaloneEnv,
  startNode,
  TestNode,
  uniqueNamespace,
  UNLIMITED,
} from '../utils/test-node.js';
import { createJob, neverFiringJob } from '../utils/jobs.js';
import { sleep } from '../utils/async.js';

/**
 * Bounded inputs (README "Limits"): every stored field has a maximum enforced before any write, with a 400
 * (problem+json) naming the field; over the limit nothing is written (no row, no audit entry). Both shapes:
 * MariaDB's TEXT columns hold 65,535 bytes (a longer value was cut, or failed after a part of the change was
 * written), SQLite's have no limit (a value the cluster could not store was accepted there).
 */
const shapes: Array<[string, () => Record<string, string>]> = [
  ['standalone', () => standaloneEnv({ TICKWHEEL_ALLOW_SHELL: 'true' })],
  ['cluster', () => clusterEnv(uniqueNamespace('e2e-bounds'), { TICKWHEEL_ALLOW_SHELL: 'true' })],
];

/** A JSON object whose JSON text is exactly `bytes` UTF-8 bytes long. */
function paramsOf(bytes: number, key = 'blob'): Record<string, string> {
  return { [key]: 'x'.repeat(bytes - `{"${key}":""}`.length) };
}

function expectField(res: TickwheelResponse, status: number, field: string): void {
  expect({ status: res.status, field: (res.body as { field?: string }).field }).toEqual({ status, field });
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
}

let seq = 0;
const code = (what: string) => `${what}-${Date.now()}-${++seq}`;
const yearly = (extra: Record<string, unknown> = {}) => ({ ...neverFiringJob(code('b')), ...extra });

describe.each(shapes)('bounded inputs (%s)', (shape, env) => {
  let node: TestNode;
  let client: TickwheelClient;
  const appId = `bounds-${Date.now()}`;

  beforeAll(async () => {
    node = await startNode(env());
    client = await signedClient(node, appId, [...DEFAULT_SCOPES, Scope.SHELL], UNLIMITED); // crontab imports need the shell scope
  });
  afterAll(async () => node?.close());

  const count = async (sql: string, args: unknown[]) => Number((await node.ds.query(sql, args))[0].c);
  const instancesOf = (jobId: string) => count('SELECT COUNT(*) AS c FROM job_instance WHERE job_id = ?', [jobId]);
  const auditOf = (jobId: string, action: string) =>
    count('SELECT COUNT(*) AS c FROM audit_log WHERE target_id = ? AND action = ?', [jobId, action]);
  const jobsWithCode = (c: string) => count('SELECT COUNT(*) AS c FROM job_definition WHERE code = ?', [c]);

  it('accepts timeoutMs at its maximum on a task, a batch and a job, and answers one past it with a 400 naming it', async () => {
    const max = BOUNDS.timeoutMs.max;
    const timeoutOf = async (requestId: string) =>
      (await node.ds.query('SELECT timeout_ms AS t FROM job_instance WHERE app_id = ? AND request_id = ?', [
        appId,
        requestId,
      ])) as Array<{ t: number }>;
    const at = code('tmax');
    expect(
      (await client.request('POST', '/api/tasks', { requestId: at, handler: 'noop', timeoutMs: max })).status,
    ).toBe(202);
    expect((await timeoutOf(at)).map((r) => Number(r.t))).toEqual([max]);
    const past = code('tpast');
    expectField(
      await client.request('POST', '/api/tasks', { requestId: past, handler: 'noop', timeoutMs: max + 1 }),
      400,
      'timeoutMs',
    );
    const batch = { tasks: [{ handler: 'noop' }, { requestId: past, handler: 'noop', timeoutMs: max + 1 }] };
    expectField(await client.request('POST', '/api/tasks/batch', batch), 400, 'tasks[1].timeoutMs');
    expect(await timeoutOf(past)).toEqual([]);
    expect((await client.request('POST', '/api/jobs', yearly({ timeoutMs: max }))).status).toBe(201);
    const over = yearly({ timeoutMs: max + 1 });
    expectField(await client.request('POST', '/api/jobs', over), 400, 'timeoutMs');
    expect(await jobsWithCode(over.code as string)).toBe(0);
  });

  it('refuses trigger-now params over 65,535 bytes with a 400 naming params, and writes no instance', async () => {
    const job = await createJob(client, yearly());
    const res = await client.request('POST', `/api/jobs/${job.id}/trigger`, { params: paramsOf(70_000) });
    expectField(res, 400, 'params');
    expect(await instancesOf(job.id)).toBe(0);
    expect(await auditOf(job.id, 'JOB_TRIGGER')).toBe(0);
    const fits = await client.request<{ instanceId: string }>('POST', `/api/jobs/${job.id}/trigger`, {
      params: paramsOf(65_535),
    });
    expect(fits.status).toBe(202);
    const [row] = await node.ds.query('SELECT params FROM job_instance WHERE id = ?', [fits.body.instanceId]);
    expect(Buffer.byteLength(row.params)).toBe(65_535);
  });

  it('refuses job params over 65,535 bytes on create and PATCH, and writes nothing', async () => {
    const body = yearly({ params: paramsOf(65_536) });
    expectField(await client.request('POST', '/api/jobs', body), 400, 'params');
    expect(await jobsWithCode(body.code as string)).toBe(0);
    const job = await client.request<{ id: string; version: number }>('POST', '/api/jobs', yearly());
    expectField(await client.request('PATCH', `/api/jobs/${job.body.id}`, { params: paramsOf(70_000) }), 400, 'params');
    expect((await client.request<{ version: number }>('GET', `/api/jobs/${job.body.id}`)).body.version).toBe(
      job.body.version,
    );
    expect(await auditOf(job.body.id, 'JOB_UPDATE')).toBe(0);
  });

  it('creates, reads and deletes a job whose params fill the column, each with its audit row (it was a 500 that took effect)', async () => {
    const params = paramsOf(65_535);
    const created = await createJob(client, yearly({ params, description: 'd'.repeat(255) }));
    expect(created.params).toEqual(params);
    expect(await auditOf(created.id, 'JOB_CREATE')).toBe(1);
    const patched = await client.request('PATCH', `/api/jobs/${created.id}`, {
      params: paramsOf(65_000, 'other'),
    });
    expect(patched.status).toBe(200);
    expect(await auditOf(created.id, 'JOB_UPDATE')).toBe(1);
    expect((await client.request('DELETE', `/api/jobs/${created.id}`)).status).toBe(204);
    expect(await auditOf(created.id, 'JOB_DELETE')).toBe(1);
  });

  it('refuses shardParams whose shard, merged over the params, would not fit an instance, or that overflow their own column', async () => {
    const sharded = { routingStrategy: 'SHARDING_BROADCAST', shardTotal: 2 };
    const merged = yearly({ ...sharded, params: paramsOf(40_000, 'a'), shardParams: [paramsOf(30_000, 'b'), {}] });
    expectField(await client.request('POST', '/api/jobs', merged), 400, 'shardParams');
    const column = yearly({
      routingStrategy: 'SHARDING_BROADCAST',
      shardTotal: 3,
      shardParams: [paramsOf(30_000), paramsOf(30_000), paramsOf(30_000)],
    });
    expectField(await client.request('POST', '/api/jobs', column), 400, 'shardParams');
    expect((await jobsWithCode(merged.code as string)) + (await jobsWithCode(column.code as string))).toBe(0);
    // Trigger-now params merged over a shard's own: the request's params are at fault.
    const job = await createJob(client, yearly({ ...sharded, shardParams: [paramsOf(30_000, 'b'), {}] }));
    expectField(
      await client.request('POST', `/api/jobs/${job.id}/trigger`, { params: paramsOf(40_000, 'a') }),
      400,
      'params',
    );
    expect(await instancesOf(job.id)).toBe(0);
  });

  it('refuses a backfill of more than 10,000 instances (fires x shardTotal) before writing any', async () => {
    const job = await createJob(
      client,
      yearly({ routingStrategy: 'SHARDING_BROADCAST', shardTotal: 100, triggerExpr: '0 0 * * *', enabled: false }),
    );
    const day = 86_400_000;
    const range = (days: number) => ({
      from: new Date(Date.now() - days * day).toISOString(),
      to: new Date(Date.now() - 1000).toISOString(),
    });
    expectField(await client.request('POST', `/api/jobs/${job.id}/backfill`, range(110)), 400, 'to'); // 110 fires x 100 shards
    expect(await instancesOf(job.id)).toBe(0);
  });

  it('bounds offset and limit on every list route (offset=1e20 was a 500)', async () => {
    const job = await client.request<{ id: string }>('POST', '/api/jobs', yearly());
    for (const path of ['/api/jobs', `/api/jobs/${job.body.id}/instances`]) {
      expectField(await client.request('GET', `${path}?offset=1e20`), 400, 'offset');
      expectField(await client.request('GET', `${path}?offset=100001`), 400, 'offset');
      expectField(await client.request('GET', `${path}?limit=501`), 400, 'limit');
      expect((await client.request('GET', `${path}?offset=100000&limit=500`)).status).toBe(200);
    }
  });

  it('refuses a crontab over 256 KiB, and answers junk with a bounded list of rejected lines', async () => {
    expectField(
      await client.request('POST', '/api/jobs/import-crontab', {
        fileName: 'big',
        content: '#'.repeat(256 * 1024 + 1),
      }),
      400,
      'content',
    );
    const junk = Array.from({ length: 100_000 }, () => 'x').join('\n'); // 200 KB: 100,000 rejected lines
    const res = await client.request<{
      created: string[];
      rejected: Array<{ line: string; reason: string }>;
      rejectedTotal: number;
    }>('POST', '/api/jobs/import-crontab', { fileName: 'junk', content: `${'y'.repeat(50_000)}\n${junk}` });
    expect(res.status).toBe(200);
    expect(res.body.rejectedTotal).toBe(100_001);
    expect(res.body.rejected).toHaveLength(100);
    expect(res.body.rejected[0].line.length).toBeLessThanOrEqual(200);
    expect(JSON.stringify(res.body).length).toBeLessThan(64 * 1024);
  });

  it('rejects a crontab entry whose job params would be over 65,535 bytes, and imports the others', async () => {
    const content = `FOO=${'v'.repeat(70_000)}\n0 1 * * * root /bin/echo big\n`;
    const fileName = code('envbig');
    const res = await client.request<{ created: string[]; rejected: Array<{ lineNo: number; reason: string }> }>(
      'POST',
      '/api/jobs/import-crontab',
      { fileName, content: `0 2 * * * root /bin/echo small\n${content}` },
    );
    expect(res.status).toBe(200);
    expect(res.body.created).toEqual([`${fileName}-L1`]);
    expect(res.body.rejected.find((r) => r.lineNo === 3)?.reason).toMatch(/params.*65535 bytes/);
  });

  it('refuses a batch of 100,000 tasks by its length, before its items are parsed into objects, while /health/live keeps answering', async () => {
    const body = `{"tasks":[${Array.from({ length: 100_000 }, () => '{"handler":"noop"}').join(',')}]}`;
    const tasksBefore = await count('SELECT COUNT(*) AS c FROM job_instance WHERE app_id = ? AND job_id IS NULL', [
      appId,
    ]);
    const started = Date.now();
    let stop = false;
    let worst = 0;
    const probe = (async () => {
      while (!stop) {
        const t0 = performance.now();
        expect((await fetch(`${node.url}/health/live`)).status).toBe(200);
        worst = Math.max(worst, performance.now() - t0);
        await sleep(20); // sampling: the probe's pace
      }
    })();
    const answers = await Promise.all(
      [0, 1, 2].map(() => client.request<{ field: string }>('POST', '/api/tasks/batch', body)),
    );
    stop = true;
    await probe;
    for (const res of answers) expectField(res, 400, 'tasks');
    expect(Date.now() - started).toBeLessThan(3000);
    // Measured 55-105 ms on the 2-core test machine (three 1.9 MB bodies hashed and parsed), up to 0.9 s with five
    // other test runs beside it; it was 4-6 s, with the leader's lease lost.
    expect(worst).toBeLessThan(2000);
    expect(await count('SELECT COUNT(*) AS c FROM job_instance WHERE app_id = ? AND job_id IS NULL', [appId])).toBe(
      tasksBefore,
    );
  }, 60_000);

  it(`caps one job's fan-out at JOB_MAX_INSTANCES_PER_MINUTE (3000): create, PATCH and resume name shardTotal or triggerExpr`, async () => {
    const sharded = (shardTotal: number, triggerType: string, triggerExpr: string) =>
      yearly({ routingStrategy: 'SHARDING_BROADCAST', shardTotal, triggerType, triggerExpr });
    expectField(await client.request('POST', '/api/jobs', sharded(1000, 'FIXED_RATE', '1000')), 400, 'shardTotal');
    expectField(await client.request('POST', '/api/jobs', sharded(51, 'CRON', '* * * * * *')), 400, 'shardTotal');
    expectField(
      await client.request('POST', '/api/jobs', { ...sharded(101, 'CRON', '*/2 * * * * *'), enabled: false }),
      400,
      'shardTotal',
    );
    const ok = await createJob(client, {
      ...sharded(50, 'CRON', '*/2 * * * * *'),
      enabled: false,
    }); // checked all the same
    expectField(
      await client.request('PATCH', `/api/jobs/${ok.id}`, {
        triggerExpr: '* * * * * *',
        shardTotal: 61,
        shardParams: null,
      }),
      400,
      'shardTotal',
    );
    expect((await client.request('PATCH', `/api/jobs/${ok.id}`, { triggerExpr: '* * * * * *' })).status).toBe(200); // 60 x 50: the cap itself
    // A job stored over the cap (written before the setting, or the setting lowered since) may not be resumed.
    const paused = await createJob(client, {
      ...sharded(10, 'CRON', '* * * * * *'),
      enabled: false,
    });
    await node.ds.query('UPDATE job_definition SET shard_total = 1000 WHERE id = ?', [paused.id]);
    expectField(await client.request('POST', `/api/jobs/${paused.id}/resume`), 400, 'shardTotal');
    const fast = await createJob(client, sharded(60, 'CRON', '0 * * * * *'));
    expect((await client.request('POST', `/api/jobs/${fast.id}/pause`)).status).toBe(200);
    expectField(
      await client.request('PATCH', `/api/jobs/${fast.id}`, { triggerExpr: '*/1 * * * * *' }),
      400,
      'triggerExpr',
    );
  });
});
