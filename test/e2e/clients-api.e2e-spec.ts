import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { runNode } from '../utils/run-node.js';
import { appClient, appIdOf, expectProblem, SHAPES } from '../utils/tenancy.js';
import {
  clusterEnv,
  MYSQL_URL,
  REDIS_URL,
  startNode,
  TEST_SECRET_KEY,
  TestNode,
  uniqueNamespace,
} from '../utils/test-node.js';

type View = {
  appId: string;
  enabled: boolean;
  scopes: string[];
  maxJobs: number | null;
  egressAllow: string[] | null;
  secret?: string;
};
const HEX64 = /^[0-9a-f]{64}$/;
const noopJob = (code: string) => ({
  code,
  handler: 'noop',
  triggerType: 'FIXED_RATE',
  triggerExpr: '3600000',
  enabled: false,
});

/**
 * Admins manage API clients over the API (docs/tenancy.md "Scopes and admin"); a secret is shown only in a create's
 * or a rotation's answer.
 */
describe.each(SHAPES)('clients API (%s)', (_shape, env) => {
  let node: TestNode;
  let admin: TickwheelClient & { appId: string };
  const secrets: string[] = [];
  const logged: string[] = [];

  beforeAll(async () => {
    for (const level of ['log', 'error', 'warn', 'debug', 'verbose', 'fatal'] as const) {
      jest.spyOn(Logger.prototype, level).mockImplementation(function (this: Logger, ...args: unknown[]) {
        logged.push(JSON.stringify(args));
      });
    }
    node = await startNode(env()); // Logger calls are caught above whatever LOG_LEVEL lets through
    admin = await appClient(node, 'cl-admin', [Scope.ADMIN]);
  }, 60_000);
  afterAll(async () => {
    jest.restoreAllMocks();
    await node?.close();
  });

  const as = (appId: string, secret: string) => new TickwheelClient({ baseUrl: node.url, appId, secret });

  it('should create a client (the secret shown once), with default or chosen scopes and limits, that can sign at once', async () => {
    const appId = appIdOf('cl-new');
    const created = await admin.request<View>('POST', '/api/clients', {
      appId,
      scopes: ['tasks:read'],
      maxJobs: 2,
      egressAllow: ['api.example.com:443', '10.0.0.0/8'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      appId,
      enabled: true,
      scopes: ['tasks:read'],
      maxJobs: 2,
      egressAllow: ['api.example.com:443', '10.0.0.0/8'],
    });
    expect(created.body.secret).toMatch(HEX64);
    secrets.push(created.body.secret as string);
    const client = as(appId, created.body.secret as string);
    expectProblem(await client.request('GET', '/api/tasks/nothing'), 404);
    expectProblem(await client.request('POST', '/api/jobs', noopJob('j')), 403, { scope: 'jobs:write' });
    const plain = await admin.request<View>('POST', '/api/clients', { appId: appIdOf('cl-dflt') });
    secrets.push(plain.body.secret as string);
    expect(plain.body.scopes).toEqual([...DEFAULT_SCOPES]);

    const one = await admin.request<View>('GET', `/api/clients/${appId}`);
    expect(one.body).toMatchObject({ appId, scopes: ['tasks:read'] });
    expect(one.body).not.toHaveProperty('secret');
    // The test database is shared by every suite (hundreds of clients), so walk all pages, not the first.
    const page = await admin.request<{ total: number; items: View[] }>('GET', '/api/clients?limit=500');
    const all: View[] = [...page.body.items];
    for (let offset = 500; offset < page.body.total; offset += 500) {
      all.push(
        ...(await admin.request<{ items: View[] }>('GET', `/api/clients?offset=${offset}&limit=500`)).body.items,
      );
    }
    expect(all.map((c) => c.appId)).toEqual(expect.arrayContaining([appId, plain.body.appId]));
    for (const c of all) expect(Object.keys(c)).not.toContain('secret');
    // offset skips in appId order; another suite may create a client between two reads, so compare adjacent reads
    // and allow a few tries.
    const second = async () => {
      const two = await admin.request<{ items: View[] }>('GET', '/api/clients?offset=0&limit=2');
      const one = await admin.request<{ items: View[] }>('GET', '/api/clients?offset=1&limit=1');
      return [one.body.items[0].appId, two.body.items[1].appId];
    };
    let pair = await second();
    for (let i = 0; i < 5 && pair[0] !== pair[1]; i++) pair = await second();
    expect(pair[0]).toBe(pair[1]);
  });

  it('should change scopes and limits at once on this API process, disable (401) and enable, and rotate the secret', async () => {
    const appId = appIdOf('cl-chg');
    const { secret } = (await admin.request<View>('POST', '/api/clients', { appId, scopes: ['jobs:read'] })).body as {
      secret: string;
    };
    secrets.push(secret);
    const client = as(appId, secret);
    expectProblem(await client.request('POST', '/api/jobs', noopJob('a')), 403, { scope: 'jobs:write' });
    expect(
      (await admin.request<View>('PATCH', `/api/clients/${appId}`, { scopes: ['jobs:read', 'jobs:write'], maxJobs: 1 }))
        .body,
    ).toMatchObject({ scopes: ['jobs:read', 'jobs:write'], maxJobs: 1 });
    expect((await client.request('POST', '/api/jobs', noopJob('a'))).status).toBe(201);
    expectProblem(await client.request('POST', '/api/jobs', noopJob('b')), 409, { field: 'maxJobs' });
    expect((await admin.request<View>('PATCH', `/api/clients/${appId}`, { maxJobs: null })).body.maxJobs).toBeNull();
    expect((await client.request('POST', '/api/jobs', noopJob('b'))).status).toBe(201);

    expect((await admin.request<View>('PATCH', `/api/clients/${appId}`, { enabled: false })).body.enabled).toBe(false);
    expect((await client.request('GET', '/api/jobs')).status).toBe(401);
    expect((await admin.request<View>('PATCH', `/api/clients/${appId}`, { enabled: true })).body.enabled).toBe(true);
    expect((await client.request('GET', '/api/jobs')).status).toBe(200);

    const rotated = await admin.request<View>('POST', `/api/clients/${appId}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(HEX64);
    expect(rotated.body.secret).not.toBe(secret);
    secrets.push(rotated.body.secret as string);
    expect((await client.request('GET', '/api/jobs')).status).toBe(401);
    expect((await as(appId, rotated.body.secret as string).request('GET', '/api/jobs')).status).toBe(200);
    const actions: Array<{ action: string; app_id: string }> = await node.ds.query(
      'SELECT action, app_id FROM audit_log WHERE target_type = ? AND target_id = ? ORDER BY created_at, id',
      ['client', appId],
    );
    expect(actions.map((r) => r.action)).toEqual([
      'CLIENT_CREATE',
      'CLIENT_UPDATE',
      'CLIENT_UPDATE',
      'CLIENT_DISABLE',
      'CLIENT_UPDATE',
      'CLIENT_ROTATE_SECRET',
    ]);
    expect(actions.every((r) => r.app_id === admin.appId)).toBe(true);
  });

  it.each<[string, string, string, Record<string, unknown>, number, string]>([
    ['a bad appId', 'POST', '/api/clients', { appId: 'a b' }, 400, 'appId'],
    ['the reserved appId tickwheel', 'POST', '/api/clients', { appId: 'tickwheel' }, 400, 'appId'],
    ['an unknown scope', 'POST', '/api/clients', { appId: 'cl-x1', scopes: ['root'] }, 400, 'scopes'],
    ['a repeated scope', 'POST', '/api/clients', { appId: 'cl-x2', scopes: ['jobs:read', 'jobs:read'] }, 400, 'scopes'],
    [
      '65 egress entries',
      'POST',
      '/api/clients',
      { appId: 'cl-x3', egressAllow: Array.from({ length: 65 }, (_, i) => `h${i}.example.com`) },
      400,
      'egressAllow',
    ],
    [
      'an egress entry with a space',
      'POST',
      '/api/clients',
      { appId: 'cl-x4', egressAllow: ['a b'] },
      400,
      'egressAllow',
    ],
    [
      'an egress entry of 256 characters',
      'POST',
      '/api/clients',
      { appId: 'cl-x5', egressAllow: ['a'.repeat(256)] },
      400,
      'egressAllow',
    ],
    ['rateBurst 0', 'POST', '/api/clients', { appId: 'cl-x6', rateBurst: 0 }, 400, 'rateBurst'],
    ['maxJobs -1', 'POST', '/api/clients', { appId: 'cl-x7', maxJobs: -1 }, 400, 'maxJobs'],
    [
      'maxUnfinishedTasks 1.5',
      'POST',
      '/api/clients',
      { appId: 'cl-x8', maxUnfinishedTasks: 1.5 },
      400,
      'maxUnfinishedTasks',
    ],
    ['an unknown field', 'POST', '/api/clients', { appId: 'cl-x9', secret: 'mine' }, 400, 'secret'],
    ['scopes null', 'PATCH', '/api/clients/{admin}', { scopes: null }, 400, 'scopes'],
    ['its own disabling', 'PATCH', '/api/clients/{admin}', { enabled: false }, 400, 'enabled'],
    ['its own admin scope dropped', 'PATCH', '/api/clients/{admin}', { scopes: ['jobs:read'] }, 400, 'scopes'],
  ])('should refuse %s naming the field, and write nothing', async (_what, method, path, body, status, field) => {
    // The rows this request could write: the client it names (POST) and the admin's own (PATCH). Other suites create
    // clients meanwhile, so a count of the whole table is not this request's.
    const named = typeof body.appId === 'string' ? body.appId : admin.appId;
    const rows = () =>
      node.ds.query('SELECT * FROM api_client WHERE app_id IN (?, ?) ORDER BY app_id', [named, admin.appId]);
    const before = await rows();
    expectProblem(await admin.request(method, path.replace('{admin}', admin.appId), body), status, { field });
    expect(await rows()).toEqual(before);
    expect((await admin.request<View>('GET', `/api/clients/${admin.appId}`)).body).toMatchObject({
      enabled: true,
      scopes: ['admin'],
    });
  });

  it('should refuse an admin adding a scope to its own client (403 naming it: admin must not grant itself shell), while another admin may', async () => {
    for (const scopes of [
      [Scope.ADMIN, Scope.SHELL],
      [Scope.ADMIN, Scope.JOBS_WRITE],
    ]) {
      expectProblem(await admin.request('PATCH', `/api/clients/${admin.appId}`, { scopes }), 403, { scope: scopes[1] });
    }
    expect((await admin.request<View>('GET', `/api/clients/${admin.appId}`)).body.scopes).toEqual(['admin']);
    const other = await appClient(node, 'cl-admin2', [Scope.ADMIN]);
    expect(
      (await other.request<View>('PATCH', `/api/clients/${admin.appId}`, { scopes: [Scope.ADMIN, Scope.SHELL] })).body
        .scopes,
    ).toEqual(expect.arrayContaining(['admin', 'shell']));
    expect(
      (await other.request<View>('PATCH', `/api/clients/${admin.appId}`, { scopes: [Scope.ADMIN] })).body.scopes,
    ).toEqual(['admin']);
  });

  it('should answer 409 for an app id that exists, 404 for one that does not, and bound the paging', async () => {
    expectProblem(await admin.request('POST', '/api/clients', { appId: admin.appId }), 409, { field: 'appId' });
    for (const [method, path] of [
      ['GET', '/api/clients/nobody-here'],
      ['PATCH', '/api/clients/nobody-here'],
      ['POST', '/api/clients/nobody-here/rotate-secret'],
    ]) {
      expectProblem(await admin.request(method, path, method === 'PATCH' ? { maxJobs: 1 } : undefined), 404);
    }
    expectProblem(await admin.request('GET', '/api/clients?offset=100001'), 400, { field: 'offset' });
    expectProblem(await admin.request('GET', '/api/clients?limit=501'), 400, { field: 'limit' });
  });

  it('should never show a secret elsewhere: not in reads, not in audit rows, not in logs', async () => {
    expect(secrets.length).toBeGreaterThanOrEqual(4);
    const answers =
      JSON.stringify((await admin.request('GET', '/api/clients?limit=500')).body) +
      JSON.stringify((await admin.request('GET', '/api/audit?limit=500')).body);
    const audit = JSON.stringify(await node.ds.query('SELECT * FROM audit_log'));
    const stored = JSON.stringify(await node.ds.query('SELECT secret_enc FROM api_client'));
    expect(logged.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      for (const [where, text] of [
        ['answers', answers],
        ['audit', audit],
        ['logs', logged.join('\n')],
        ['api_client', stored],
      ])
        expect([where, text.includes(secret)]).toEqual([where, false]);
    }
    expect(audit).not.toMatch(/secret_?enc/i);
  });
});

/** The operator's CLI: `npm run create-app -- APP_ID [--scopes a,b,c] [--admin]` prints the scopes it gave. */
describe('create-app CLI scopes', () => {
  const cli = (args: string[], settings: Record<string, string>) =>
    runNode(join(process.cwd(), 'dist/src/bin/create-app.js'), args, { LOG_LEVEL: 'error', ...settings });
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'tw-cli-scopes-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should give the default scopes, a chosen list, or add admin, and say which (standalone)', async () => {
    const [plain, chosen, admin] = [appIdOf('cli-p'), appIdOf('cli-c'), appIdOf('cli-a')];
    const p = await cli([plain], { DATA_DIR: dir });
    expect(p.stdout).toContain('Scopes: tasks:read,tasks:write,jobs:read,jobs:write,nodes:read\n');
    const c = await cli([chosen, '--scopes', 'jobs:read,tasks:read'], { DATA_DIR: dir });
    expect(c.stdout).toContain('Scopes: tasks:read,jobs:read\n');
    const a = await cli([admin, '--admin'], { DATA_DIR: dir });
    expect([a.code, a.stdout]).toEqual([
      0,
      expect.stringContaining('Scopes: tasks:read,tasks:write,jobs:read,jobs:write,nodes:read,admin\n'),
    ]);
    const node = await startNode({ DATA_DIR: dir, LOG_LEVEL: 'error' });
    try {
      const rows: Array<{ app_id: string; scopes: string }> = await node.ds.query(
        'SELECT app_id, scopes FROM api_client ORDER BY app_id',
      );
      expect(Object.fromEntries(rows.map((r) => [r.app_id, JSON.parse(r.scopes)]))).toEqual({
        [plain]: [...DEFAULT_SCOPES],
        [chosen]: ['tasks:read', 'jobs:read'],
        [admin]: [...DEFAULT_SCOPES, 'admin'],
      });
      const audit: Array<{ app_id: string | null; action: string }> = await node.ds.query(
        'SELECT app_id, action FROM audit_log WHERE target_id = ?',
        [admin],
      );
      expect(audit).toEqual([{ app_id: null, action: 'CLIENT_CREATE' }]);
    } finally {
      await node.close();
    }
  }, 60_000);

  it('should refuse an unknown scope or option with exit code 2 and the usage, writing nothing', async () => {
    const bad = await cli([appIdOf('cli-b'), '--scopes', 'root'], { DATA_DIR: dir });
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining("unknown scope 'root'")]);
    const odd = await cli([appIdOf('cli-o'), '--owner'], { DATA_DIR: dir });
    expect([odd.code, odd.stderr]).toEqual([
      2,
      expect.stringContaining('usage: npm run create-app -- APP_ID [--scopes a,b,c] [--admin]'),
    ]);
    expect(bad.stdout + odd.stdout).toBe('');
  });

  it('should create an admin in the cluster store that manages clients at once', async () => {
    const appId = appIdOf('cli-adm');
    const r = await cli([appId, '--admin'], { DB_URL: MYSQL_URL, REDIS_URL, TICKWHEEL_SECRET_KEY: TEST_SECRET_KEY });
    expect(r.code).toBe(0);
    const secret = /Secret:\s+([0-9a-f]{64})/.exec(r.stdout)?.[1] as string;
    const node = await startNode(clusterEnv(uniqueNamespace('e2e-cli-adm'), { ROLES: 'api', LOG_LEVEL: 'error' }));
    try {
      const admin = new TickwheelClient({ baseUrl: node.url, appId, secret });
      expect((await admin.request<View>('GET', `/api/clients/${appId}`)).body.scopes).toEqual([
        ...DEFAULT_SCOPES,
        'admin',
      ]);
    } finally {
      await node.close();
    }
  }, 60_000);
});
