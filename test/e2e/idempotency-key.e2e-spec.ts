import { createHash, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { TickwheelClient, TickwheelResponse } from '../../src/client/tickwheel-client.js';
import { JobsService } from '../../src/modules/jobs/index.js';
import { RetentionService } from '../../src/modules/trigger/index.js';
import { createJob, neverFiringJob } from '../utils/jobs.js';
import { clusterEnv, signedClient, standaloneEnv, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';

type Shape = 'cluster' | 'standalone';
type Body = Record<string, unknown>;

/** A signed request with an `Idempotency-Key` header (the test client has no way to add one). */
async function keyed<T = Body>(
  client: TickwheelClient,
  key: string | undefined,
  method: string,
  path: string,
  body?: unknown,
): Promise<TickwheelResponse<T>> {
  const payload = body === undefined ? '' : JSON.stringify(body);
  const headers: Record<string, string> = client.sign(method, path, payload);
  if (payload) headers['content-type'] = 'application/json';
  if (key !== undefined) headers['idempotency-key'] = key;
  const res = await fetch(new URL(path, client.baseUrl), { method, headers, body: payload || undefined });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as T };
}

const replayed = (r: TickwheelResponse) => r.headers.get('idempotency-replayed');
const newKey = () => `k-${randomUUID()}`;
let seq = 0;

/**
 * Idempotency-Key (docs/api.md "Idempotency") against a real node: MariaDB + Redis (cluster), and the SQLite
 * standalone shape. A replay answers the first answer and runs nothing; another request with the key is a 409
 * that changes nothing; concurrent duplicates run the route once; keys are per app; error answers are not stored.
 */
describe.each<Shape>(['cluster', 'standalone'])('Idempotency-Key (%s)', (shape) => {
  const namespace = uniqueNamespace('idem');
  let node: TestNode;
  let a: TickwheelClient;
  let b: TickwheelClient;

  beforeAll(async () => {
    const env = { RATE_LIMIT_PER_SECOND: '0', IDEMPOTENCY_KEYS_PER_APP: '100' }; // the smallest cap: see its test
    node = await startNode(shape === 'cluster' ? clusterEnv(namespace, env) : standaloneEnv(env));
    a = await signedClient(node);
    b = await signedClient(node);
  }, 60_000);

  afterAll(async () => {
    await node?.ds.query('DELETE FROM idempotency_key WHERE namespace = ?', [node.config.namespace]);
    await node?.close();
  });

  async function job(client = a, extra: Body = {}): Promise<Body & { id: string; code: string }> {
    return createJob(client, { ...extra, code: `idem-${Date.now()}-${++seq}` });
  }

  async function instances(jobId: string, source: string): Promise<number> {
    const rows = (await node.ds.query(
      'SELECT COUNT(*) AS c FROM job_instance WHERE job_id = ? AND trigger_source = ?',
      [jobId, source],
    )) as Array<{ c: number | string }>;
    return Number(rows[0].c);
  }

  it('should replay a trigger: the same 202 and body, one MANUAL instance, Idempotency-Replayed: true', async () => {
    const j = await job();
    const key = newKey();
    const first = await keyed(a, key, 'POST', `/api/jobs/${j.code}/trigger`, {});
    expect(first.status).toBe(202);
    expect(replayed(first)).toBeNull();
    const again = await keyed(a, key, 'POST', `/api/jobs/${j.code}/trigger`, {});
    expect({ status: again.status, body: again.body }).toEqual({ status: 202, body: first.body });
    expect(replayed(again)).toBe('true');
    expect(await instances(j.id, 'MANUAL')).toBe(1);
    // Without the key, the route runs as before: a second instance.
    await new Promise((r) => setTimeout(r, 5));
    expect((await a.request('POST', `/api/jobs/${j.code}/trigger`, {})).status).toBe(202);
    expect(await instances(j.id, 'MANUAL')).toBe(2);
  });

  it('should replay a backfill with its first counts (a second run would answer created: 0)', async () => {
    const j = await job(a, { triggerExpr: '0 * * * *' });
    const now = Date.now();
    const range = { from: new Date(now - 3 * 3_600_000).toISOString(), to: new Date(now).toISOString() };
    const key = newKey();
    const first = await keyed<{ created: number; existing: number }>(
      a,
      key,
      'POST',
      `/api/jobs/${j.id}/backfill`,
      range,
    );
    expect(first.status).toBe(200);
    expect(first.body.created).toBeGreaterThanOrEqual(3);
    const again = await keyed(a, key, 'POST', `/api/jobs/${j.id}/backfill`, range);
    expect({ status: again.status, body: again.body, replayed: replayed(again) }).toEqual({
      status: 200,
      body: first.body,
      replayed: 'true',
    });
    expect(await instances(j.id, 'BACKFILL')).toBe(first.body.created);
  });

  it('should replay a DELETE as the same 204, not a 404', async () => {
    const j = await job();
    const key = newKey();
    expect((await keyed(a, key, 'DELETE', `/api/jobs/${j.id}`)).status).toBe(204);
    const again = await keyed(a, key, 'DELETE', `/api/jobs/${j.id}`);
    expect([again.status, replayed(again), again.body]).toEqual([204, 'true', null]);
    expect((await keyed(a, newKey(), 'DELETE', `/api/jobs/${j.id}`)).status).toBe(404);
  });

  it('should answer 409 IDEMPOTENCY_KEY_REUSED for the key with another body or path, changing nothing', async () => {
    const j = await job();
    const key = newKey();
    const first = await keyed<Body>(a, key, 'PATCH', `/api/jobs/${j.id}`, { description: 'first' });
    expect(first.status).toBe(200);
    const other = await keyed<Body>(a, key, 'PATCH', `/api/jobs/${j.id}`, { description: 'second' });
    expect(other.status).toBe(409);
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(other.body).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', field: 'Idempotency-Key' });
    const elsewhere = await keyed<Body>(a, key, 'POST', `/api/jobs/${j.id}/pause`);
    expect(elsewhere.body).toMatchObject({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
    const now = await a.request<Body>('GET', `/api/jobs/${j.id}`);
    expect(now.body).toMatchObject({ description: 'first', enabled: true, version: first.body.version });
  });

  it('should run 20 concurrent duplicates of a trigger once and give all of them the same answer', async () => {
    const j = await job();
    const key = newKey();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => keyed(a, key, 'POST', `/api/jobs/${j.code}/trigger`, {})),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(202));
    for (const r of answers) expect(r.body).toEqual(answers[0].body);
    expect(answers.filter((r) => replayed(r) === null)).toHaveLength(1);
    expect(await instances(j.id, 'MANUAL')).toBe(1);
  });

  it("should keep keys per app: app B's same key runs on its own", async () => {
    const key = newKey();
    const mine = await keyed<Body>(a, key, 'POST', '/api/jobs', neverFiringJob(`idem-a-${++seq}`));
    const theirs = await keyed<Body>(b, key, 'POST', '/api/jobs', neverFiringJob(`idem-b-${++seq}`));
    expect([mine.status, theirs.status, replayed(theirs)]).toEqual([201, 201, null]);
    expect(theirs.body.appId).not.toBe(mine.body.appId);
  });

  it('should refuse a malformed key with a 400 naming Idempotency-Key, and a key on task submission', async () => {
    const j = await job();
    for (const bad of ['x'.repeat(256), 'caf\u00e9']) {
      const r = await keyed<Body>(a, bad, 'POST', `/api/jobs/${j.id}/pause`);
      expect(r.body).toMatchObject({ status: 400, field: 'Idempotency-Key' });
    }
    expect((await a.request<Body>('GET', `/api/jobs/${j.id}`)).body.enabled).toBe(true);
    const quoted = await keyed<Body>(a, `"${newKey()}"`, 'POST', `/api/jobs/${j.id}/pause`);
    expect(quoted.status).toBe(200);
    const task = await keyed<Body>(a, newKey(), 'POST', '/api/tasks', { handler: 'noop' });
    expect(task.body).toMatchObject({ status: 400, field: 'Idempotency-Key' });
    // A read ignores the header.
    expect((await keyed(a, newKey(), 'GET', `/api/jobs/${j.id}`)).status).toBe(200);
  });

  it('should not store an error answer: after a 500 or a 400 the same key runs again', async () => {
    const j = await job();
    const key = newKey();
    const jobs = node.app.get(JobsService);
    const spy = jest.spyOn(jobs, 'pause').mockRejectedValueOnce(new Error('boom'));
    try {
      expect((await keyed(a, key, 'POST', `/api/jobs/${j.id}/pause`)).status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    const retry = await keyed<Body>(a, key, 'POST', `/api/jobs/${j.id}/pause`);
    expect([retry.status, replayed(retry), retry.body.enabled]).toEqual([200, null, false]);
    const fix = newKey();
    const invalid = await keyed<Body>(a, fix, 'PATCH', `/api/jobs/${j.id}`, { triggerExpr: 'nope' });
    expect(invalid.status).toBe(400);
    const valid = await keyed<Body>(a, fix, 'PATCH', `/api/jobs/${j.id}`, { description: 'fixed' });
    expect([valid.status, replayed(valid), valid.body.description]).toEqual([200, null, 'fixed']);
  });

  it('should answer 409 IDEMPOTENCY_IN_PROGRESS with Retry-After while the first run holds the key', async () => {
    const j = await job();
    const key = newKey();
    const path = `/api/jobs/${j.id}/pause`;
    const bodyHash = createHash('sha256').update('').digest('hex');
    const fingerprint = createHash('sha256').update(`POST\n${path}\n${bodyHash}`).digest('hex');
    const appId = (await a.request<Body>('GET', path.replace('/pause', ''))).body.appId as string;
    const insert = (startedAt: number) =>
      node.ds.query(
        'INSERT INTO idempotency_key (namespace, app_id, idem_key, fingerprint, request, state, owner, started_at,' +
          " expires_at) VALUES (?, ?, ?, ?, ?, 'RUNNING', ?, ?, ?)",
        [node.config.namespace, appId, key, fingerprint, `POST ${path}`, randomUUID(), startedAt, Date.now() + 3.6e6],
      );
    await insert(Date.now());
    const busy = await keyed<Body>(a, key, 'POST', path);
    expect([busy.status, busy.body.code, busy.headers.get('retry-after')]).toEqual([
      409,
      'IDEMPOTENCY_IN_PROGRESS',
      '1',
    ]);
    expect((await a.request<Body>('GET', `/api/jobs/${j.id}`)).body.enabled).toBe(true);
    // A run abandoned (its node died) past the bound is taken over: the route runs.
    await node.ds.query('DELETE FROM idempotency_key WHERE namespace = ? AND idem_key = ?', [
      node.config.namespace,
      key,
    ]);
    await insert(Date.now() - 3_600_000);
    const taken = await keyed<Body>(a, key, 'POST', path);
    expect([taken.status, replayed(taken), taken.body.enabled]).toEqual([200, null, false]);
  }, 30_000);

  it('should refuse a new key past IDEMPOTENCY_KEYS_PER_APP with a 429 that runs nothing; a held key still replays', async () => {
    const appId = `idem-cap-${++seq}-${randomUUID().slice(0, 8)}`;
    const c = await signedClient(node, appId);
    const j = await job(c);
    const held = newKey();
    const first = await keyed<Body>(c, held, 'POST', `/api/jobs/${j.id}/pause`);
    expect(first.status).toBe(200);
    await c.request('POST', `/api/jobs/${j.id}/resume`);
    const now = Date.now();
    const rows = Array.from({ length: 99 }, (_, i) => [
      node.config.namespace,
      appId,
      `filler-${i}`,
      'f'.repeat(64),
      'POST /filler',
      'DONE',
      randomUUID(),
      now,
      now + 3_600_000,
    ]);
    await node.ds.query(
      'INSERT INTO idempotency_key (namespace, app_id, idem_key, fingerprint, request, state, owner, started_at, ' +
        `expires_at) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      rows.flat(),
    );
    const refused = await keyed<Body>(c, newKey(), 'POST', `/api/jobs/${j.id}/pause`);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'TOO_MANY_IDEMPOTENCY_KEYS', field: 'Idempotency-Key' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await c.request<Body>('GET', `/api/jobs/${j.id}`)).body.enabled).toBe(true); // nothing ran
    const again = await keyed<Body>(c, held, 'POST', `/api/jobs/${j.id}/pause`);
    expect([again.status, replayed(again)]).toEqual([200, 'true']);
    expect((await c.request('POST', `/api/jobs/${j.id}/pause`)).status).toBe(200); // without a key: as always
  });

  it('should forget a key once expired: the retention pass removes it and the key runs a new request', async () => {
    const key = newKey();
    const first = await keyed<Body>(a, key, 'POST', '/api/jobs', neverFiringJob(`idem-exp-${++seq}`));
    expect(first.status).toBe(201);
    const count = async () =>
      Number(
        (
          (await node.ds.query('SELECT COUNT(*) AS c FROM idempotency_key WHERE namespace = ? AND idem_key = ?', [
            node.config.namespace,
            key,
          ])) as Array<{ c: number | string }>
        )[0].c,
      );
    expect(await count()).toBe(1);
    await node.app.get(RetentionService).pass();
    expect(await count()).toBe(1); // not expired yet
    await node.ds.query('UPDATE idempotency_key SET expires_at = ? WHERE namespace = ? AND idem_key = ?', [
      Date.now() - 1,
      node.config.namespace,
      key,
    ]);
    await node.app.get(RetentionService).pass();
    expect(await count()).toBe(0);
    const reused = await keyed<Body>(a, key, 'POST', '/api/jobs', neverFiringJob(`idem-exp-${++seq}`));
    expect([reused.status, replayed(reused)]).toEqual([201, null]);
  });
});
