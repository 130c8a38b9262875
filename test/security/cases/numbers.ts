import { type App, type Hostile, refused } from '../harness.js';
import { signAs } from './signing.js';

/** Out-of-range JSON numbers (as JSON text): negative, overflowing to ±Infinity, fractional, beyond 2^53, and numbers sent as strings. */
const BAD_NUMBERS = ['-1', '1e309', '-1e309', '1.5', '9007199254740993', '"NaN"', '"5"', '[]', '{}'];
/** The same in a query string. */
const BAD_QUERY_NUMBERS = ['-1', '1e20', '1.5', 'NaN', 'Infinity', '9007199254740993', 'abc', '0x', '1,2'];

/** One numeric field of a body: the route, the field as the 400 names it, its lowest allowed value, and the body around it. */
interface NumericField {
  route: string;
  method: string;
  field: string;
  min: number;
  /** The body (JSON text) with `value` (JSON text) in the field. */
  body: (value: string, tag: string) => string;
  admin?: boolean;
}

/**
 * Every numeric field of tasks, batches, jobs (create, PATCH), clients (create, PATCH) and the list queries
 * (offset, limit), each sent out-of-range values: a 400 naming the field, nothing written. -0 is sent to the
 * fields whose lowest value is 1 (elsewhere it is a valid 0).
 */
export function numberCases(h: Hostile): void {
  const task = (f: string) => (v: string, tag: string) =>
    `{"requestId":"${h.prefix}-n-${tag}","handler":"noop","delayMs":3600000,"${f}":${v}}`;
  const job = (f: string) => (v: string, tag: string) =>
    `{"code":"n-${tag}","handler":"noop","triggerType":"CRON","triggerExpr":"0 0 1 1 *","enabled":false,"${f}":${v}}`;
  const client = (f: string) => (v: string, tag: string) => `{"appId":"${h.prefix}-n-${tag}","${f}":${v}}`;
  const patch = (f: string) => (v: string) => `{"${f}":${v}}`;
  const fields: NumericField[] = [
    ...(['delayMs', 'retryBackoffMs'] as const).map((f) => ({
      route: '/api/tasks',
      method: 'POST',
      field: f,
      min: 0,
      body: task(f),
    })),
    ...(['timeoutMs', 'maxAttempts'] as const).map((f) => ({
      route: '/api/tasks',
      method: 'POST',
      field: f,
      min: 1,
      body: task(f),
    })),
    {
      route: '/api/tasks/batch',
      method: 'POST',
      field: 'tasks[0].maxAttempts',
      min: 1,
      body: (v, tag) => `{"tasks":[${task('maxAttempts')(v, tag)}]}`,
    },
    ...(['maxConcurrency', 'retryMax', 'retryBackoffMs'] as const).map((f) => ({
      route: '/api/jobs',
      method: 'POST',
      field: f,
      min: 0,
      body: job(f),
    })),
    ...(['shardTotal', 'timeoutMs'] as const).map((f) => ({
      route: '/api/jobs',
      method: 'POST',
      field: f,
      min: 1,
      body: job(f),
    })),
    ...(['shardTotal', 'timeoutMs'] as const).map((f) => ({
      route: '/api/jobs/{jobA}',
      method: 'PATCH',
      field: f,
      min: 1,
      body: patch(f),
    })),
    ...(['rateLimit', 'maxJobs', 'maxUnfinishedTasks'] as const).map((f) => ({
      route: '/api/clients',
      method: 'POST',
      field: f,
      min: 0,
      body: client(f),
      admin: true,
    })),
    { route: '/api/clients', method: 'POST', field: 'rateBurst', min: 1, body: client('rateBurst'), admin: true },
    ...(['rateLimit', 'maxJobs', 'maxUnfinishedTasks'] as const).map((f) => ({
      route: '/api/clients/{b}',
      method: 'PATCH',
      field: f,
      min: 0,
      body: patch(f),
      admin: true,
    })),
    { route: '/api/clients/{b}', method: 'PATCH', field: 'rateBurst', min: 1, body: patch('rateBurst'), admin: true },
  ];
  const target = (route: string) => route.replace('{jobA}', h.jobA.id).replace('{b}', h.b.appId);

  it.each(fields.map((f) => [`${f.method} ${f.route}`, f.field, f] as const))(
    '[usual] %s: out-of-range numbers in %s are a 400 naming it',
    (_r, _f, f) =>
      h.unchanged(async () => {
        const app: App = f.admin ? h.admin : h.a;
        const values = f.min >= 1 ? [...BAD_NUMBERS, '-0', '0'] : BAD_NUMBERS;
        for (const [i, value] of values.entries()) {
          const path = target(f.route);
          const body = f.body(value, `${f.field.replace(/\W/g, '')}-${i}`);
          const res = await h.raw(
            f.method,
            path,
            { ...signAs(app, f.method, path, body), 'content-type': 'application/json' },
            body,
          );
          expect([value, res.status]).toEqual([value, 400]);
          refused(res, 400, 'VALIDATION', { field: f.field });
        }
      }),
  );

  it.each(['-1', '0', '1.5', '1e309', 'NaN', '"60000"', '60000.5', '-60000'])(
    '[usual] a FIXED_RATE job whose period is %s is a 400 naming triggerExpr',
    (period) =>
      h.unchanged(async () => {
        const body = { code: 'rate', handler: 'noop', triggerType: 'FIXED_RATE', triggerExpr: period, enabled: false };
        refused(await h.a.request('POST', '/api/jobs', body), 400, 'VALIDATION', { field: 'triggerExpr' });
      }),
  );

  const lists = ['/api/jobs', '/api/jobs/{jobA}/instances', '/api/clients', '/api/audit'];
  it.each(lists.flatMap((route) => ['offset', 'limit'].map((q) => [route, q] as const)))(
    '[bounded inputs] GET %s: out-of-range %s is a 400 naming it',
    (route, q) =>
      h.unchanged(async () => {
        const app = route.startsWith('/api/jobs') ? h.a : h.admin;
        for (const value of [...BAD_QUERY_NUMBERS, ...(q === 'limit' ? ['0', '501', ''] : ['100001'])]) {
          const res = await app.request('GET', `${target(route)}?${q}=${encodeURIComponent(value)}`);
          expect([value, res.status]).toEqual([value, 400]);
          refused(res, 400, 'VALIDATION', { field: q });
        }
      }),
  );
}
