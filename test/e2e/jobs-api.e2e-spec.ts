import { TickwheelClient, TickwheelResponse } from '../../src/client/tickwheel-client.js';
import { HttpReceiver, startReceiver } from '../utils/http-receiver.js';
import {
  clusterEnv,
  signedClient,
  standaloneEnv,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { createJob, neverFiringJob, type JobRequest } from '../utils/jobs.js';
import { sleep } from '../utils/async.js';

type Job = Record<string, unknown> & {
  id: string;
  code: string;
  version: number;
  enabled: boolean;
  nextFireTime: string | null;
  nextFireTimes: string[];
};
type Task = Record<string, unknown> & { requestId: string; status: string; triggerSource: string };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DAY_MS = 86_400_000;
let seq = 0;

/** A valid CRON job body (yearly, so it never fires during a test unless asked to). */
function cronBody(receiver: HttpReceiver, extra: Record<string, unknown> = {}): JobRequest {
  return { ...neverFiringJob(`job-${Date.now()}-${++seq}`, 'http'), params: { url: `${receiver.url}/job` }, ...extra };
}

/** Asserts an RFC 9457 problem answer with `status` (and `field` when given); returns its body. */
function expectProblem(res: TickwheelResponse, status: number, field?: string): Record<string, unknown> {
  expect({ status: res.status, body: res.body }).toMatchObject({ status });
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const b = res.body as Record<string, unknown>;
  expect(b.status).toBe(status);
  expect(typeof b.title).toBe('string');
  expect(typeof b.detail).toBe('string');
  expect((b.title as string).length).toBeGreaterThan(0);
  expect((b.detail as string).length).toBeGreaterThan(0);
  if (field !== undefined) expect(b.field).toBe(field);
  return b;
}

/** Asserts the 5 previews are ISO instants, strictly increasing and in the future; returns them as ms. */
function previewMs(job: Job): number[] {
  expect(job.nextFireTimes).toHaveLength(5);
  for (const t of job.nextFireTimes) expect(t).toMatch(ISO);
  const ms = job.nextFireTimes.map((t) => Date.parse(t));
  for (let i = 1; i < ms.length; i++) expect(ms[i]).toBeGreaterThan(ms[i - 1]);
  expect(ms[0]).toBeGreaterThan(Date.now() - 1000);
  return ms;
}

async function awaitManualSuccess(
  client: TickwheelClient,
  receiver: HttpReceiver,
  jobId: string,
  code: string,
): Promise<Task> {
  const res = await client.request<Task>('POST', `/api/jobs/${code}/trigger`, {});
  expect(res.status).toBe(202);
  expect(res.body.triggerSource).toBe('MANUAL');
  expect(res.body).not.toHaveProperty('shards'); // only a sharded job's answer lists shards
  const requestId = res.body.requestId;
  let instances: Task[] = [];
  await waitFor(
    `manual instance of ${code} to succeed`,
    async () => {
      instances = (await client.request<{ items: Task[] }>('GET', `/api/jobs/${jobId}/instances`)).body.items;
      return instances.some((i) => i.requestId === requestId && i.status === 'SUCCESS');
    },
    60_000,
  );
  expect(instances.filter((i) => i.requestId === requestId)).toHaveLength(1);
  expect(receiver.seen.get(requestId)).toBe(1);
  return instances[0];
}

describe('jobs API (standalone)', () => {
  let node: TestNode;
  let receiver: HttpReceiver;
  let client: TickwheelClient;
  const appId = `jobs-${Date.now()}`;

  beforeAll(async () => {
    receiver = await startReceiver();
    node = await startNode(standaloneEnv());
    client = await signedClient(node, appId);
  }, 60_000);

  afterAll(async () => {
    await node?.close();
    await receiver?.close();
  });

  const create = (body: Record<string, unknown>) => client.request<Job>('POST', '/api/jobs', body);

  it('should create a 6-field CRON job with 5 increasing next fire times on its 15 s grid', async () => {
    const res = await create(cronBody(receiver, { triggerExpr: '*/15 * * * * *', enabled: false }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      triggerType: 'CRON',
      triggerExpr: '*/15 * * * * *',
      timeZone: 'UTC',
      version: 1,
      enabled: false,
      nextFireTime: null,
    });
    const ms = previewMs(res.body);
    for (const t of ms) expect(new Date(t).getUTCSeconds() % 15).toBe(0);
    for (const t of ms) expect(t % 1000).toBe(0);
    for (let i = 1; i < ms.length; i++) expect(ms[i] - ms[i - 1]).toBe(15_000);
    expect(ms[0]).toBeLessThanOrEqual(Date.now() + 15_000);
  });

  it('should read a cron expression in its time zone (09:30 Asia/Shanghai = 01:30Z)', async () => {
    const res = await create(cronBody(receiver, { triggerExpr: '0 30 9 * * *', timeZone: 'Asia/Shanghai' }));
    expect(res.status).toBe(201);
    expect(res.body.timeZone).toBe('Asia/Shanghai');
    const ms = previewMs(res.body);
    for (const t of res.body.nextFireTimes) expect(t).toMatch(/T01:30:00\.000Z$/);
    for (let i = 1; i < ms.length; i++) expect(ms[i] - ms[i - 1]).toBe(DAY_MS);
    expect(res.body.nextFireTime).toBe(res.body.nextFireTimes[0]);
  });

  it('should get a job by id and by code, and page the list with offset/limit', async () => {
    const created = (await create(cronBody(receiver))).body;
    const byId = await client.request<Job>('GET', `/api/jobs/${created.id}`);
    const byCode = await client.request<Job>('GET', `/api/jobs/${created.code}`);
    expect(byId.status).toBe(200);
    expect(byCode.status).toBe(200);
    expect(byId.body.code).toBe(created.code);
    expect(byCode.body.id).toBe(created.id);

    const first = await client.request<{ total: number; items: Job[] }>('GET', '/api/jobs?offset=0&limit=2');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    const total = first.body.total;
    expect(total).toBeGreaterThanOrEqual(3);
    const seen: string[] = [];
    for (let offset = 0; offset < total; offset += 2) {
      const page = await client.request<{ total: number; items: Job[] }>('GET', `/api/jobs?offset=${offset}&limit=2`);
      expect(page.body.total).toBe(total);
      expect(page.body.items.length).toBe(Math.min(2, total - offset));
      seen.push(...page.body.items.map((j) => j.code));
    }
    expect(new Set(seen).size).toBe(total);
    expect(seen).toContain(created.code);
    const shifted = await client.request<{ items: Job[] }>('GET', '/api/jobs?offset=1&limit=1');
    expect(shifted.body.items[0].code).toBe(first.body.items[1].code);
    expectProblem(await client.request('GET', '/api/jobs?limit=0'), 400, 'limit');
    expect(expectProblem(await client.request('GET', '/api/jobs?limit=abc'), 400, 'limit').detail).toMatch(/integer/);
  });

  it('should patch fields with a version bump, recompute the next fire on a schedule change and refuse a bad cron', async () => {
    const job = (await create(cronBody(receiver, { triggerExpr: '0 0 6 * * *' }))).body;
    expect(job.nextFireTime).toMatch(/T06:00:00\.000Z$/);
    const described = await client.request<Job>('PATCH', `/api/jobs/${job.id}`, { description: 'nightly' });
    expect(described.status).toBe(200);
    expect(described.body).toMatchObject({
      description: 'nightly',
      version: job.version + 1,
      nextFireTime: job.nextFireTime,
    });
    const moved = await client.request<Job>('PATCH', `/api/jobs/${job.code}`, { triggerExpr: '0 0 12 * * *' });
    expect(moved.status).toBe(200);
    expect(moved.body.version).toBe(job.version + 2);
    expect(moved.body.nextFireTime).toMatch(/T12:00:00\.000Z$/);
    expect(Date.parse(moved.body.nextFireTime as string)).toBeGreaterThan(Date.now());
    for (const t of moved.body.nextFireTimes) expect(t).toMatch(/T12:00:00\.000Z$/);
    expectProblem(
      await client.request('PATCH', `/api/jobs/${job.id}`, { triggerExpr: '0 0 25 * * *' }),
      400,
      'triggerExpr',
    );
    expectProblem(await client.request('PATCH', `/api/jobs/${job.id}`, { timeZone: 'Nowhere/Land' }), 400, 'timeZone');
    for (const field of ['handler', 'triggerExpr', 'timeZone', 'params']) {
      expectProblem(await client.request('PATCH', `/api/jobs/${job.id}`, { [field]: null }), 400, field);
    }
    const cleared = await client.request<Job>('PATCH', `/api/jobs/${job.id}`, { description: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ description: null, version: job.version + 3 });
    const after = await client.request<Job>('GET', `/api/jobs/${job.id}`);
    expect(after.body).toMatchObject({
      version: job.version + 3,
      handler: 'http',
      triggerExpr: '0 0 12 * * *',
      timeZone: 'UTC',
    });
  });

  it('should pause, resume, trigger, list instances, delete (then 404) and audit every step', async () => {
    const job = (await create(cronBody(receiver))).body;
    const paused = await client.request<Job>('POST', `/api/jobs/${job.id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ enabled: false, nextFireTime: null });
    expect((await client.request<Job>('GET', `/api/jobs/${job.id}`)).body).toMatchObject({
      enabled: false,
      nextFireTime: null,
    });
    const resumed = await client.request<Job>('POST', `/api/jobs/${job.code}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.enabled).toBe(true);
    expect(Date.parse(resumed.body.nextFireTime as string)).toBeGreaterThan(Date.now());

    const instance = await awaitManualSuccess(client, receiver, job.id, job.code);
    expect(instance).toMatchObject({ jobCode: job.code, handler: 'http', triggerSource: 'MANUAL', status: 'SUCCESS' });

    expect((await client.request('PATCH', `/api/jobs/${job.id}`, { description: 'audited' })).status).toBe(200);
    const del = await client.request('DELETE', `/api/jobs/${job.id}`);
    expect(del.status).toBe(204);
    expectProblem(await client.request('GET', `/api/jobs/${job.id}`), 404);
    expectProblem(await client.request('DELETE', `/api/jobs/${job.id}`), 404);

    const rows: Array<{ action: string; app_id: string }> = await node.ds.query(
      'SELECT action, app_id FROM audit_log WHERE target_id = ?',
      [job.id],
    );
    expect(rows.map((r) => r.action).sort()).toEqual([
      'JOB_CREATE',
      'JOB_DELETE',
      'JOB_PAUSE',
      'JOB_RESUME',
      'JOB_TRIGGER',
      'JOB_UPDATE',
    ]);
    expect(rows.every((r) => r.app_id === appId)).toBe(true);
  }, 90_000);

  it('should answer 409 for a duplicate code', async () => {
    const body = cronBody(receiver);
    expect((await create(body)).status).toBe(201);
    expectProblem(await create({ ...body, triggerExpr: '0 0 1 * * *' }), 409, 'code');
  });

  it('should preview a FIXED_RATE job on the grid of its real first fire (the preview was a few ms off it)', async () => {
    const res = await create(
      cronBody(receiver, { code: 'rate-preview', triggerType: 'FIXED_RATE', triggerExpr: '3600000' }),
    );
    expect(res.status).toBe(201);
    const ms = previewMs(res.body);
    expect(ms[0]).toBe(Date.parse(res.body.nextFireTime as string));
    for (let i = 1; i < ms.length; i++) expect(ms[i] - ms[i - 1]).toBe(3_600_000);
    await sleep(20); // time passes on purpose: the preview must stay on the same grid
    expect(previewMs((await client.request<Job>('GET', '/api/jobs/rate-preview')).body)).toEqual(ms);
  });

  it('should accept a future ONE_SHOT with exactly one preview', async () => {
    const at = new Date(Date.now() + 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const res = await create(cronBody(receiver, { triggerType: 'ONE_SHOT', triggerExpr: at }));
    expect(res.status).toBe(201);
    expect(res.body.nextFireTimes).toEqual([at.replace('Z', '.000Z')]);
  });

  describe('validation errors', () => {
    const cases: Array<[string, (b: Record<string, unknown>) => Record<string, unknown>, string]> = [
      ['a bad cron expression (61 * * * *)', (b) => ({ ...b, triggerExpr: '61 * * * *' }), 'triggerExpr'],
      ['an unknown time zone', (b) => ({ ...b, timeZone: 'Mars/Olympus_Mons' }), 'timeZone'],
      ['a cron that never fires (30 February)', (b) => ({ ...b, triggerExpr: '0 0 30 2 *' }), 'triggerExpr'],
      ['an unknown property', (b) => ({ ...b, colour: 'blue' }), 'colour'],
      ['a missing handler', ({ handler: _h, ...b }) => b, 'handler'],
      [
        'a ONE_SHOT in the past',
        (b) => ({ ...b, triggerType: 'ONE_SHOT', triggerExpr: '2020-01-01T00:00:00Z' }),
        'triggerExpr',
      ],
      ['an unknown routingStrategy', (b) => ({ ...b, routingStrategy: 'NEAREST' }), 'routingStrategy'],
      ['shardTotal 3 without SHARDING_BROADCAST', (b) => ({ ...b, shardTotal: 3 }), 'shardTotal'],
      [
        'shardParams of the wrong length',
        (b) => ({ ...b, routingStrategy: 'SHARDING_BROADCAST', shardTotal: 3, shardParams: [{}, {}] }),
        'shardParams',
      ],
      [
        'shardParams that are not objects',
        (b) => ({ ...b, routingStrategy: 'SHARDING_BROADCAST', shardTotal: 2, shardParams: ['a', 'b'] }),
        'shardParams',
      ],
      [
        'maxConcurrency 2 with QUEUE overlap',
        (b) => ({ ...b, overlapPolicy: 'QUEUE', maxConcurrency: 2 }),
        'maxConcurrency',
      ],
      ['a negative maxConcurrency', (b) => ({ ...b, maxConcurrency: -1 }), 'maxConcurrency'],
      ['queueLimit 0', (b) => ({ ...b, overlapPolicy: 'QUEUE', queueLimit: 0 }), 'queueLimit'],
      ['queueLimit over 1000', (b) => ({ ...b, overlapPolicy: 'QUEUE', queueLimit: 1001 }), 'queueLimit'],
      ['a fractional queueLimit', (b) => ({ ...b, overlapPolicy: 'QUEUE', queueLimit: 2.5 }), 'queueLimit'],
      ['queueLimit as a string', (b) => ({ ...b, overlapPolicy: 'QUEUE', queueLimit: '3' }), 'queueLimit'],
      ['shardTotal 0', (b) => ({ ...b, routingStrategy: 'SHARDING_BROADCAST', shardTotal: 0 }), 'shardTotal'],
      ['an unknown triggerType', (b) => ({ ...b, triggerType: 'HOURLY' }), 'triggerType'],
      ['a FIXED_RATE under 1 s', (b) => ({ ...b, triggerType: 'FIXED_RATE', triggerExpr: '10' }), 'triggerExpr'],
    ];

    it.each(cases)('should answer 400 problem+json for %s', async (_name, mutate, field) => {
      const body = mutate(cronBody(receiver));
      expectProblem(await create(body), 400, field);
      expect((await client.request('GET', `/api/jobs/${String(body.code)}`)).status).toBe(404);
    });

    it('should answer 413 problem+json for a body over 2 MB', async () => {
      const res = await create(cronBody(receiver, { params: { blob: 'x'.repeat(2 * 1024 * 1024 + 10) } }));
      expectProblem(res, 413);
    });
  });
});

describe('jobs API (cluster: MariaDB + Redis)', () => {
  const ns = uniqueNamespace('e2e-jobs');
  let node: TestNode;
  let receiver: HttpReceiver;
  let client: TickwheelClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    node = await startNode(clusterEnv(ns, { NODE_OFFLINE_AFTER_MS: '15000' })); // a starved CI worker must not rerun a fire (task-shapes.ts)
    client = await signedClient(node);
  }, 60_000);

  afterAll(async () => {
    await node?.close();
    await receiver?.close();
  });

  it('should create, refuse a duplicate code, trigger to SUCCESS, list only its namespace, delete and audit', async () => {
    const body = cronBody(receiver, { triggerExpr: '0 30 9 * * *', timeZone: 'Asia/Shanghai' });
    const created = await createJob(client, body);
    for (const t of created.nextFireTimes) expect(t).toMatch(/T01:30:00\.000Z$/);
    expectProblem(await client.request('POST', '/api/jobs', body), 409, 'code');
    const list = await client.request<{ total: number; items: Job[] }>('GET', '/api/jobs?offset=0&limit=10');
    expect(list.body.total).toBe(1);
    expect(list.body.items.map((j) => j.code)).toEqual([body.code]);

    await awaitManualSuccess(client, receiver, created.id, created.code);
    expect((await client.request('DELETE', `/api/jobs/${created.code}`)).status).toBe(204);
    expectProblem(await client.request('GET', `/api/jobs/${created.id}`), 404);
    const rows: Array<{ action: string }> = await node.ds.query('SELECT action FROM audit_log WHERE target_id = ?', [
      created.id,
    ]);
    expect(rows.map((r) => r.action).sort()).toEqual(['JOB_CREATE', 'JOB_DELETE', 'JOB_TRIGGER']);
  }, 90_000);
});
