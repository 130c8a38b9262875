import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { DEFAULT_SCOPES, Scope } from '../../../src/modules/metadata/index.js';
import { MAX_BODY_VALUES } from '../../../src/common/index.js';
import { createJob } from '../../utils/jobs.js';
import { ANY_SIGNED_ROUTES, concrete, ROUTES } from '../../utils/routes.js';
import { type App, type Hostile, refused } from '../harness.js';
import { signAs } from './signing.js';
import { copyRow } from './tenancy.js';

type Operation = { parameters?: Array<{ in: string; name: string; schema?: { type?: string } }> };
const doc = JSON.parse(readFileSync('openapi/openapi.json', 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};

/** Every GET route with a numeric query parameter (from the OpenAPI document), with those parameters. */
const NUMERIC_QUERIES = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).flatMap(([method, op]) => {
    const names = (op.parameters ?? [])
      .filter((p) => p.in === 'query' && (p.schema?.type === 'integer' || p.schema?.type === 'number'))
      .map((p) => p.name);
    return names.length > 0 ? [[method.toUpperCase(), path, names] as const] : [];
  }),
);

/** Texts `Number()` reads as a number in range that are not plain decimal digits (`0x10` was offset 16). */
const NOT_DECIMAL = ['0x10', '0b1', '0o7', '1e1', '+5', ' 7', '7 ', '', '1_0'];

/**
 * Smaller holes of the API a hostile tenant found: an Idempotency-Key with an edge space (one key on MariaDB, two on
 * SQLite), an app's task reached through the api of another namespace, the reserved app id in another letter case,
 * query numbers in hex, a query parameter a route ignored, and the documented largest batch refused.
 */
export function lowApiCases(h: Hostile): void {
  let all: App;
  beforeAll(async () => {
    all = await h.newApp('all', [...DEFAULT_SCOPES, Scope.ADMIN, Scope.WORKER]);
  });
  const at = (path: string) =>
    path
      .replace('{requestId}', h.taskA)
      .replace('{id}', h.jobA.id)
      .replace('{instanceId}', h.instanceA)
      .replace('{appId}', h.a.appId);

  it('[bounded inputs] an Idempotency-Key with a space first or last is a 400 naming it, never the key without it', async () => {
    const app = await h.newApp('idem');
    const job = await createJob(app, { code: 'idem-edge' });
    const key = `k-${randomUUID()}`;
    const pause = (k: string) => {
      const path = `/api/jobs/${job.id}/pause`;
      return h.raw('POST', path, { ...signAs(app, 'POST', path), 'idempotency-key': k });
    };
    expect((await pause(key)).status).toBe(200);
    await h.unchanged(async () => {
      // MariaDB's utf8mb4_bin pads: "K " replayed K's answer there, and ran the route again on SQLite
      for (const k of [`"${key} "`, `" ${key}"`, `"${key}  "`])
        refused(await pause(k), 400, 'VALIDATION', { field: 'Idempotency-Key' });
      expect((await pause(`"${key}"`)).headers.get('idempotency-replayed')).toBe('true');
    });
  });

  it("[tenancy] A's task of another namespace is a 404 on every task route here, and its requestId a 409 at submit", async () => {
    const other = `${h.namespace}-other`;
    const requestId = `${h.prefix}-elsewhere`;
    const taskId = (await h.a.getTask(h.taskA)).body.instanceId as string;
    const copy = await copyRow(h.node.ds, 'job_instance', taskId, { namespace: other, request_id: requestId });
    try {
      await h.unchanged(async () => {
        for (const [method, path] of [
          ['GET', `/api/tasks/${requestId}`],
          ['GET', `/api/tasks/${requestId}/logs`],
          ['POST', `/api/tasks/${requestId}/cancel`],
          ['POST', `/api/tasks/${requestId}/callback/redeliver`],
        ])
          refused(await h.a.request(method, path), 404, 'NOT_FOUND');
        // the same body as the task's: it replayed a task no route of this namespace shows
        refused(await h.a.submitTask({ requestId, handler: 'noop' }), 409, 'CONFLICT', { field: 'requestId' });
        const batch = await h.a.request<{ results: Array<{ error?: { status: number } }> }>(
          'POST',
          '/api/tasks/batch',
          { tasks: [{ requestId, handler: 'noop' }] },
        );
        expect([batch.status, batch.body.results[0].error?.status]).toEqual([202, 409]);
      });
    } finally {
      await h.node.ds.query('DELETE FROM job_instance WHERE id = ?', [copy]);
    }
  });

  it('[tenancy] the reserved app id tickwheel is refused in any letter case (a 400 naming appId)', () =>
    h.unchanged(async () => {
      for (const appId of ['tickwheel', 'TICKWHEEL', 'TickWheel'])
        refused(await h.admin.request('POST', '/api/clients', { appId }), 400, 'VALIDATION', { field: 'appId' });
    }));

  it.each(NUMERIC_QUERIES.map(([m, p, names]) => [m, p, names] as const))(
    '[bounded inputs] %s %s: a query number in hex, with an exponent, a sign or a space is a 400 naming it',
    (method, path, names) =>
      h.unchanged(async () => {
        for (const name of names)
          for (const value of NOT_DECIMAL) {
            const res = await all.request(method, `${at(path)}?${name}=${encodeURIComponent(value)}`);
            expect([name, value, res.status]).toEqual([name, value, 400]);
            refused(res, 400, 'VALIDATION', { field: name });
          }
      }),
  );

  it('[bounded inputs] every route refuses a query parameter it does not take (a 400 naming it)', () =>
    h.unchanged(async () => {
      const routes = [...ROUTES.map(([m, p, , b]) => [m, p, b] as const), ...ANY_SIGNED_ROUTES];
      for (const [method, path, body] of routes) {
        const res = await all.request(method, `${concrete(path)}?zz-unknown=1`, body?.());
        expect([method, path, res.status]).toEqual([method, path, 400]);
        refused(res, 400, 'VALIDATION', { field: 'zz-unknown' });
      }
      // a parameter other routes take: a submit ran as the caller's own
      const res = await h.a.request('POST', `/api/tasks?appId=${h.b.appId}`, { handler: 'noop' });
      refused(res, 400, 'VALIDATION', { field: 'appId' });
    }));

  // last: its 1,000 tasks run (noop) after it, while no later case of this run snapshots the namespace
  it(`[bounded inputs] a batch of 1,000 tasks with a params of 100 values is taken (at most ${MAX_BODY_VALUES} values), of 101 refused`, async () => {
    const app = await h.newApp('batch');
    // 2 + 1,000 × (1 + 3 + values): the body, tasks, each task, its requestId, handler, params, and params' values
    const batch = (values: number, tag: string) => ({
      tasks: Array.from({ length: 1000 }, (_, i) => ({
        requestId: `${h.prefix}-${tag}-${i}`,
        handler: 'noop',
        params: Object.fromEntries(Array.from({ length: values }, (_, k) => [`k${k}`, k])),
      })),
    });
    await h.unchanged(async () => {
      const res = await app.request('POST', '/api/tasks/batch', batch(101, 'over'));
      expect(refused(res, 400, 'VALIDATION', { field: 'tasks' }).detail).toMatch(/JSON values/);
    });
    const res = await app.request<{ results: unknown[] }>('POST', '/api/tasks/batch', batch(100, 'max'));
    expect([res.status, res.body.results?.length]).toEqual([202, 1000]);
  });
}
