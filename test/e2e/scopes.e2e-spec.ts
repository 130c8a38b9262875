import { readFileSync } from 'node:fs';
import { Scope } from '../../src/modules/metadata/index.js';
import { appClient, expectProblem, SHAPES } from '../utils/tenancy.js';
import { ANY_SIGNED_ROUTES, concrete, ROUTES } from '../utils/routes.js';
import { startNode, TestNode } from '../utils/test-node.js';

describe('every signed route needs a scope', () => {
  it('should list every /api operation of the OpenAPI spec here, with the scope the spec shows (x-required-scope)', () => {
    const spec = JSON.parse(readFileSync('openapi/openapi.json', 'utf8')) as {
      paths: Record<string, Record<string, { 'x-required-scope'?: string; 'x-any-signed-caller'?: boolean }>>;
    };
    const scopeOf = (op: { 'x-required-scope'?: string; 'x-any-signed-caller'?: boolean }) =>
      op['x-any-signed-caller'] ? 'any signed caller' : op['x-required-scope'];
    const inSpec = Object.entries(spec.paths)
      .filter(([p]) => p.startsWith('/api'))
      .flatMap(([p, ops]) => Object.entries(ops).map(([m, op]) => `${m.toUpperCase()} ${p} ${scopeOf(op)}`));
    const table = [
      ...ROUTES.map(([m, p, s]) => `${m} ${p} ${s}`),
      ...ANY_SIGNED_ROUTES.map(([m, p]) => `${m} ${p} any signed caller`),
    ];
    expect(inSpec.sort()).toEqual(table.sort());
  });
});

describe.each(SHAPES)('scopes (%s)', (_shape, env) => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startNode(env());
  }, 60_000);
  afterAll(async () => node?.close());

  // Four arguments each (a route without a body too), or jest takes the fourth parameter for a `done` callback.
  it.each(ROUTES.map(([m, p, s, b]) => [m, p, s, b] as const))(
    '%s %s: 403 naming %s without it, past the check with it',
    async (method, path, scope, body) => {
      const others = Object.values(Scope).filter((s) => s !== scope && s !== Scope.ADMIN);
      const without = await appClient(node, 'no-scope', others);
      expectProblem(await without.request(method, concrete(path), body?.()), 403, { scope });
      const only = await appClient(node, 'one-scope', [scope, Scope.SHELL]); // shell: the import's jobs are shell jobs
      const res = await only.request(method, concrete(path), body?.());
      expect([401, 403]).not.toContain(res.status);
      const admin = await appClient(node, 'admin', [Scope.ADMIN, Scope.SHELL]);
      expect([401, 403]).not.toContain((await admin.request(method, concrete(path), body?.())).status);
    },
  );

  it.each(ANY_SIGNED_ROUTES)('%s %s: any signed caller, one with no scope at all too; unsigned a 401', async (m, p) => {
    const none = await appClient(node, 'none', []);
    expect((await none.request(m, concrete(p))).status).toBe(200);
    expect((await fetch(`${node.url}${concrete(p)}`, { method: m })).status).toBe(401);
  });

  it('should refuse every route to a client with no scope at all, and answer nothing but the 403', async () => {
    const none = await appClient(node, 'none', []);
    for (const [method, path, scope, body] of ROUTES) {
      const problem = expectProblem(await none.request(method, concrete(path), body?.()), 403, { scope });
      expect(Object.keys(problem).sort()).toEqual(['code', 'detail', 'instance', 'scope', 'status', 'title', 'type']);
    }
    const [{ n }] = await node.ds.query(
      'SELECT (SELECT COUNT(*) FROM job_definition WHERE app_id = ?) + (SELECT COUNT(*) FROM job_instance WHERE app_id = ?) + (SELECT COUNT(*) FROM audit_log WHERE app_id = ?) AS n',
      [none.appId, none.appId, none.appId],
    );
    expect(Number(n)).toBe(0);
  });
});
