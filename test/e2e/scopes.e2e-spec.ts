import { readFileSync } from 'node:fs';
import { Scope } from '../../src/modules/metadata/index.js';
import { appClient, appIdOf, expectProblem, SHAPES } from '../utils/tenancy.js';
import { startNode, TestNode } from '../utils/test-node.js';

const S = Scope;
const later = { handler: 'noop', delayMs: 3_600_000 };
let seq = 0;

/** Every signed route, with the scope it needs and a body that passes validation (a fresh one per call). */
const ROUTES: Array<[method: string, path: string, scope: Scope, body?: () => unknown]> = [
  ['POST', '/api/tasks', S.TASKS_WRITE, () => later],
  ['POST', '/api/tasks/batch', S.TASKS_WRITE, () => ({ tasks: [later] })],
  ['POST', '/api/tasks/{requestId}/cancel', S.TASKS_WRITE],
  ['GET', '/api/tasks/{requestId}', S.TASKS_READ],
  ['POST', '/api/jobs', S.JOBS_WRITE, () => ({ code: `scoped-${++seq}`, handler: 'noop', triggerType: 'FIXED_RATE', triggerExpr: '3600000', enabled: false })],
  ['GET', '/api/jobs', S.JOBS_READ],
  ['POST', '/api/jobs/import-crontab', S.JOBS_WRITE, () => ({ fileName: `scoped-${++seq}`, content: '' })],
  ['GET', '/api/jobs/{id}', S.JOBS_READ],
  ['PATCH', '/api/jobs/{id}', S.JOBS_WRITE, () => ({ description: 'x' })],
  ['DELETE', '/api/jobs/{id}', S.JOBS_WRITE],
  ['POST', '/api/jobs/{id}/pause', S.JOBS_WRITE],
  ['POST', '/api/jobs/{id}/resume', S.JOBS_WRITE],
  ['POST', '/api/jobs/{id}/trigger', S.JOBS_WRITE, () => ({})],
  ['POST', '/api/jobs/{id}/backfill', S.JOBS_WRITE, () => ({ from: '2026-01-01T00:00:00Z', to: '2026-01-01T01:00:00Z' })],
  ['POST', '/api/jobs/{id}/instances/{instanceId}/cancel', S.JOBS_WRITE],
  ['GET', '/api/jobs/{id}/instances/{instanceId}', S.JOBS_READ],
  ['GET', '/api/jobs/{id}/instances', S.JOBS_READ],
  ['GET', '/api/nodes', S.NODES_READ],
  ['POST', '/api/clients', S.ADMIN, () => ({ appId: appIdOf('scoped') })],
  ['GET', '/api/clients', S.ADMIN],
  ['GET', '/api/clients/{appId}', S.ADMIN],
  ['PATCH', '/api/clients/{appId}', S.ADMIN, () => ({ maxJobs: 5 })],
  ['POST', '/api/clients/{appId}/rotate-secret', S.ADMIN],
  ['GET', '/api/audit', S.ADMIN],
];

/** The concrete path: ids that name nothing, so a request that passes the guard changes nothing it should not. */
const concrete = (path: string) => path.replace('{requestId}', 'no-such-task').replace('{id}', 'no-such-job').replace('{instanceId}', 'no-such-instance').replace('{appId}', 'no-such-app');

describe('every signed route needs a scope (issue 9 point 1)', () => {
  it('should list every /api operation of the OpenAPI spec here, with the scope the spec shows (x-required-scope)', () => {
    const spec = JSON.parse(readFileSync('openapi/openapi.json', 'utf8')) as { paths: Record<string, Record<string, { 'x-required-scope'?: string }>> };
    const inSpec = Object.entries(spec.paths).filter(([p]) => p.startsWith('/api')).flatMap(([p, ops]) => Object.entries(ops).map(([m, op]) => `${m.toUpperCase()} ${p} ${op['x-required-scope']}`));
    expect(inSpec.sort()).toEqual(ROUTES.map(([m, p, s]) => `${m} ${p} ${s}`).sort());
  });
});

describe.each(SHAPES)('scopes (%s)', (_shape, env) => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startNode(env());
  }, 60_000);
  afterAll(async () => node?.close());

  // Four arguments each (a route without a body too), or jest takes the fourth parameter for a `done` callback.
  it.each(ROUTES.map(([m, p, s, b]) => [m, p, s, b] as const))('%s %s: 403 naming %s without it, past the check with it', async (method, path, scope, body) => {
    const others = Object.values(Scope).filter((s) => s !== scope && s !== Scope.ADMIN);
    const without = await appClient(node, 'no-scope', others);
    expectProblem(await without.request(method, concrete(path), body?.()), 403, { scope });
    const only = await appClient(node, 'one-scope', [scope, Scope.SHELL]); // shell: the import's jobs are shell jobs
    const res = await only.request(method, concrete(path), body?.());
    expect([401, 403]).not.toContain(res.status);
    const admin = await appClient(node, 'admin', [Scope.ADMIN, Scope.SHELL]);
    expect([401, 403]).not.toContain((await admin.request(method, concrete(path), body?.())).status);
  });

  it('should refuse every route to a client with no scope at all, and answer nothing but the 403', async () => {
    const none = await appClient(node, 'none', []);
    for (const [method, path, scope, body] of ROUTES) {
      const problem = expectProblem(await none.request(method, concrete(path), body?.()), 403, { scope });
      expect(Object.keys(problem).sort()).toEqual(['code', 'detail', 'instance', 'scope', 'status', 'title', 'type']);
    }
    const [{ n }] = await node.ds.query('SELECT (SELECT COUNT(*) FROM job_definition WHERE app_id = ?) + (SELECT COUNT(*) FROM job_instance WHERE app_id = ?) + (SELECT COUNT(*) FROM audit_log WHERE app_id = ?) AS n', [none.appId, none.appId, none.appId]);
    expect(Number(n)).toBe(0);
  });
});
