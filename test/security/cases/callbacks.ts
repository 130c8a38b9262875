import { type Hostile, refused } from '../harness.js';

type Call = [method: string, path: string, body?: unknown];

/** Callback URLs the default policy refuses (the harness re-opens only its receiver's loopback port). */
const REFUSED_URLS = [
  'http://127.0.0.1:1/steal',
  'http://localhost:6379/',
  'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'http://[::1]:3000/api/clients',
  'http://0.0.0.0:3000/',
  'file:///etc/passwd',
  'https://admin:hunter2@hooks.example.com/',
];

/**
 * Callbacks (docs/callbacks.md "Where a callback goes"): a callback URL aimed inside the network is a 400 naming the
 * field at every entry point, a malformed one too; another app's registrations and deliveries are out of reach (404,
 * or 403 for `?appId=` without admin). Nothing is written by any of them.
 */
export function callbackCases(h: Hostile): void {
  it('[egress] a callback URL the egress policy refuses is a 400 naming the field, wherever it is sent', () =>
    h.unchanged(async () => {
      for (const url of REFUSED_URLS) {
        const calls: Array<[...Call, string]> = [
          ['POST', '/api/tasks', { handler: 'noop', callbackUrl: url }, 'callbackUrl'],
          [
            'POST',
            '/api/tasks/batch',
            { tasks: [{ handler: 'noop' }, { handler: 'noop', callbackUrl: url }] },
            'tasks[1].callbackUrl',
          ],
          [
            'POST',
            '/api/jobs',
            {
              code: `${h.prefix}-cb`,
              handler: 'noop',
              triggerType: 'CRON',
              triggerExpr: '0 0 3 * * *',
              enabled: false,
              callbackUrl: url,
            },
            'callbackUrl',
          ],
          ['PATCH', `/api/jobs/${h.jobA.id}`, { callbackUrl: url }, 'callbackUrl'],
          ['POST', '/api/callbacks/register', { url }, 'url'],
          ['POST', '/api/callbacks/register', { url, handler: 'noop' }, 'url'],
        ];
        for (const [method, path, body, field] of calls)
          refused(await h.a.request(method, path, body), 400, 'VALIDATION', { field });
      }
    }));

  it('[bounded inputs] a callback URL or handler of the wrong type or shape is a 400 naming it', () =>
    h.unchanged(async () => {
      for (const callbackUrl of [42, {}, [], true, '', ' ', 'http://', `https://hooks.example.com/${'x'.repeat(3000)}`])
        refused(await h.a.submitTask({ handler: 'noop', callbackUrl }), 400, 'VALIDATION', { field: 'callbackUrl' });
      refused(await h.a.request('POST', '/api/callbacks/register', {}), 400, 'VALIDATION', { field: 'url' });
      refused(
        await h.a.request('POST', '/api/callbacks/register', { url: ['https://a.example/'] }),
        400,
        'VALIDATION',
        {
          field: 'url',
        },
      );
      for (const handler of ['', 'a b', 'x'.repeat(129), 7])
        refused(
          await h.a.request('POST', '/api/callbacks/register', { url: 'https://hooks.example.com/', handler }),
          400,
          'VALIDATION',
          { field: 'handler' },
        );
      refused(await h.a.request('DELETE', '/api/callbacks?handler=a%00b'), 400, 'VALIDATION', { field: 'handler' });
      refused(
        await h.a.request('POST', '/api/callbacks/register', { url: 'https://hooks.example.com/', x: 1 }),
        400,
        'VALIDATION',
        {
          field: 'x',
        },
      );
    }));

  it("[tenancy] app B never sees, removes or redelivers app A's callbacks", async () => {
    const url = 'https://hooks.example.com/a';
    expect((await h.a.request('POST', '/api/callbacks/register', { url })).status).toBe(200);
    expect((await h.a.request('POST', '/api/callbacks/register', { url, handler: 'noop' })).status).toBe(200);
    await h.unchanged(async () => {
      expect((await h.b.request('GET', '/api/callbacks')).body).toEqual({ total: 0, items: [] });
      refused(await h.b.request('DELETE', '/api/callbacks'), 404, 'NOT_FOUND');
      refused(await h.b.request('DELETE', '/api/callbacks?handler=noop'), 404, 'NOT_FOUND');
      for (const [method, path] of [
        ['GET', '/api/callbacks'],
        ['DELETE', '/api/callbacks'],
        ['POST', `/api/tasks/${h.taskA}/callback/redeliver`],
      ])
        refused(await h.b.request(method, `${path}?appId=${h.a.appId}`), 403, 'FORBIDDEN', { scope: 'admin' });
      refused(await h.b.request('POST', `/api/tasks/${h.taskA}/callback/redeliver`), 404, 'NOT_FOUND');
      for (const job of [h.jobA.id, h.jobB.id])
        refused(
          await h.b.request('POST', `/api/jobs/${job}/instances/${h.instanceA}/callback/redeliver`),
          404,
          'NOT_FOUND',
        );
    });
    const mine = await h.a.request<{ items: unknown[] }>('GET', '/api/callbacks');
    expect(mine.body.items).toHaveLength(2);
    expect((await h.a.request('DELETE', '/api/callbacks')).status).toBe(204);
    expect((await h.a.request('DELETE', '/api/callbacks?handler=noop')).status).toBe(204);
  });
}
