import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { signedClient, standaloneEnv, startNode, TestNode } from '../utils/test-node.js';

/** Failing inputs found by attacking the API (session 1); each was a 500, a silent acceptance or a stall. */
describe('hostile input (standalone)', () => {
  let node: TestNode;
  let client: TickwheelClient;

  beforeAll(async () => {
    node = await startNode(standaloneEnv());
    client = await signedClient(node, undefined, [...DEFAULT_SCOPES, Scope.SHELL]); // crontab imports make shell jobs
  });
  afterAll(async () => node?.close());

  /** JSON text of `1` inside `depth` arrays (built as text: JSON.stringify itself overflows at this depth). */
  const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

  it('should answer 400 naming params, not 500, for params nested 10,000 deep', async () => {
    for (const [path, body] of [
      ['/api/tasks', `{"handler":"http","params":{"url":"http://127.0.0.1:9/x","deep":${nested(10_000)}}}`],
      [
        '/api/jobs',
        `{"code":"deep","handler":"http","triggerType":"FIXED_RATE","triggerExpr":"60000","params":{"deep":${nested(10_000)}}}`,
      ],
    ]) {
      const res = await client.request<{ status: number; field: string }>('POST', path, body);
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('params');
    }
    const ok = await client.request('POST', '/api/tasks', `{"handler":"noop","params":{"deep":${nested(30)}}}`);
    expect(ok.status).toBe(202);
  });

  it('should say a missing field is required (it said "handler must be a string")', async () => {
    for (const [path, body, field] of [
      ['/api/tasks', { requestId: 'no-handler' }, 'handler'],
      ['/api/jobs', { code: 'no-trigger', handler: 'noop', triggerExpr: '60000' }, 'triggerType'],
      [
        '/api/tasks/batch',
        { tasks: [{ requestId: 'b-0', handler: 'noop' }, { requestId: 'b-1' }] },
        'tasks[1].handler',
      ],
    ] as const) {
      const res = await client.request<{ field: string; detail: string }>('POST', path, body);
      expect([res.status, res.body.field]).toEqual([400, field]);
      expect(res.body.detail).toMatch(/(^|: |\]\.)(handler|triggerType) is required$/);
    }
  });

  it('should validate the schedule of a job created or changed while disabled', async () => {
    for (const [triggerType, triggerExpr] of [
      ['CRON', '0 0 32 * *'],
      ['CRON', '* * * * * * *'],
      ['FIXED_RATE', '0'],
      ['ONE_SHOT', 'garbage'],
      ['ONE_SHOT', '2020-01-01T00:00:00Z'],
    ]) {
      const res = await client.request<{ field: string }>('POST', '/api/jobs', {
        code: `off-${triggerExpr.length}`,
        handler: 'noop',
        triggerType,
        triggerExpr,
        enabled: false,
      });
      expect(res.status).toBe(400);
      expect(res.body.field).toBe('triggerExpr');
    }
    const zone = await client.request<{ field: string }>('POST', '/api/jobs', {
      code: 'off-zone',
      handler: 'noop',
      triggerType: 'CRON',
      triggerExpr: '0 0 * * *',
      timeZone: 'Mars/Olympus',
      enabled: false,
    });
    expect(zone.body.field).toBe('timeZone');
    await client.request('POST', '/api/jobs', {
      code: 'off-ok',
      handler: 'noop',
      triggerType: 'CRON',
      triggerExpr: '0 0 * * *',
      enabled: false,
    });
    const patch = await client.request<{ field: string }>('PATCH', '/api/jobs/off-ok', { triggerExpr: '0 0 32 * *' });
    expect(patch.status).toBe(400);
    expect(patch.body.field).toBe('triggerExpr');
  });

  it('should refuse a backfill reaching into the future and name the field of an unreadable instant', async () => {
    await client.request('POST', '/api/jobs', {
      code: 'bf',
      handler: 'http',
      triggerType: 'CRON',
      triggerExpr: '* * * * *',
      enabled: false,
      params: { url: 'http://127.0.0.1:9/x' },
    });
    const future = await client.request<{ field: string }>('POST', '/api/jobs/bf/backfill', {
      from: new Date(Date.now() - 60_000).toISOString(),
      to: new Date(Date.now() + 120_000).toISOString(),
    });
    expect(future.status).toBe(400);
    expect(future.body.field).toBe('to');
    const compact = await client.request<{ field: string }>('POST', '/api/jobs/bf/backfill', {
      from: '20261129T000000Z',
      to: '20261129T020000Z',
    });
    expect(compact.status).toBe(400);
    expect(compact.body.field).toBe('from');
  });

  it('should refuse a crontab import of more than 500 entries at once instead of stalling the server', async () => {
    const content = Array.from({ length: 501 }, (_, i) => `${i % 60} 1 * * * root /bin/echo ${i}`).join('\n');
    const t0 = Date.now();
    const res = await client.request<{ field: string }>('POST', '/api/jobs/import-crontab', {
      fileName: 'many',
      content,
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('content');
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});
