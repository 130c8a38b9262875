import { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { TickwheelResponse } from '../../../src/client/tickwheel-client.js';
import { MAX_BODY_VALUES, MAX_OBJECT_KEYS } from '../../../src/common/index.js';
import { rawExchange, type RawExchange } from '../../utils/raw-http.js';
import { type Hostile, refused, unauthorized } from '../harness.js';
import { signAs } from './signing.js';

const MiB = 1024 * 1024;
/** JSON text of `1` inside `depth` arrays (built as text: JSON.stringify overflows at such depths). */
const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
/** JSON text of an object with `n` keys. */
const keys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`;

/** The status line, headers and JSON body of a raw exchange, as a TickwheelResponse. */
function answerOf(r: RawExchange): TickwheelResponse<Record<string, unknown>> {
  const [head, body = ''] = r.response.split('\r\n\r\n');
  const [status, ...lines] = head.split('\r\n');
  const headers = new Headers(
    lines.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string]),
  );
  return { status: Number(status.split(' ')[1]), headers, body: body ? JSON.parse(body) : {} };
}

/**
 * Bodies and the headers that describe them: huge headers, odd content types, compressed bodies (a gzip bomb is
 * never inflated), bodies over the 2 MiB cap, deep nesting, too many values or keys, and prototype-pollution keys.
 * Each is refused with its status and problem, writes nothing, and leaves /health/ready at 200.
 */
export function bodyCases(h: Hostile): void {
  const task = (tag: string, extra = '') => `{"requestId":"${h.prefix}-${tag}","handler":"noop"${extra}}`;
  const signedPost = (body: string | Buffer, headers: Record<string, string> = {}, path = '/api/tasks') =>
    h.raw('POST', path, { ...signAs(h.a, 'POST', path, body), 'content-type': 'application/json', ...headers }, body);
  const port = () => (h.node.app.getHttpServer().address() as AddressInfo).port;

  it("[usual] headers over Node's 16 KB cap are a 431", () =>
    h.unchanged(async () => {
      const r = await rawExchange(
        port(),
        `POST /api/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ${'a'.repeat(20 * 1024)}\r\nContent-Length: 2\r\n\r\n{}`,
        () => null,
      );
      expect(r.response).toMatch(/^HTTP\/1\.1 431 /);
    }));

  it.each([
    'text/plain',
    'multipart/form-data; boundary=x',
    'application/x-www-form-urlencoded',
    'application/json; charset=latin1',
    'application/json; charset=utf-16',
    'application/json; charset="iso-8859-1"',
    'application/jsonx',
    'application/problem+json',
  ])('[usual] a signed body of Content-Type %s is a 415', (type) =>
    h.unchanged(async () => {
      refused(await signedPost(task('type'), { 'content-type': type }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    }),
  );

  it('[usual] a signed body without a Content-Type is a 415', () =>
    h.unchanged(async () => {
      const body = task('untyped');
      refused(
        await h.raw('POST', '/api/tasks', signAs(h.a, 'POST', '/api/tasks', body), body),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }));

  it.each([
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
    ['gzip, identity', gzipSync],
    ['x-gzip', gzipSync],
  ] as Array<[string, (b: Buffer) => Buffer]>)(
    '[usual] a signed bomb of Content-Encoding %s (32 MiB inflated) is a 415, never inflated',
    (encoding, pack) =>
      h.unchanged(async () => {
        const bomb = pack(
          Buffer.concat([
            Buffer.from(`{"handler":"noop","params":{"pad":"`),
            Buffer.alloc(32 * MiB, 0x61),
            Buffer.from('"}}'),
          ]),
        );
        refused(await signedPost(bomb, { 'content-encoding': encoding }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      }),
    30_000,
  );

  it('[usual] a Content-Length over 2 MiB is a 413 before a byte of the body is read, and the connection is closed', () =>
    h.unchanged(async () => {
      const head = `POST /api/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${2 * MiB + 1}\r\n${headerLines(signAs(h.a, 'POST', '/api/tasks'))}\r\n`;
      let sent = 0;
      const r = await rawExchange(port(), head, () => (sent++ < 64 ? Buffer.alloc(64 * 1024, 0x20) : null));
      refused(answerOf(r), 413, 'PAYLOAD_TOO_LARGE');
      expect(r.response).toMatch(/\r\nConnection: close\r\n/i);
    }));

  it(
    '[usual] a chunked body that passes 2 MiB is a 413, and the rest is never read',
    () =>
      h.unchanged(async () => {
        const head = `POST /api/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n${headerLines(signAs(h.a, 'POST', '/api/tasks'))}\r\n`;
        const chunk = Buffer.concat([
          Buffer.from(`${(256 * 1024).toString(16)}\r\n`),
          Buffer.alloc(256 * 1024, 0x20),
          Buffer.from('\r\n'),
        ]);
        let sent = 0;
        const r = await rawExchange(port(), head, () => (sent++ < 400 ? chunk : null));
        refused(answerOf(r), 413, 'PAYLOAD_TOO_LARGE');
        expect(r.closedEarly).toBe(true);
      }),
    30_000,
  );

  it(
    '[signing] an unsigned or mis-signed 1.9 MB body nested a million deep is a 401, never parsed',
    () =>
      h.unchanged(async () => {
        const deep = task('deep', `,"params":{"deep":${nested(950_000)}}`);
        unauthorized(await h.raw('POST', '/api/tasks', { 'content-type': 'application/json' }, deep));
        unauthorized(
          await h.raw(
            'POST',
            '/api/tasks',
            { ...signAs(h.a, 'POST', '/api/tasks', deep, { secret: h.b.secret }), 'content-type': 'application/json' },
            deep,
          ),
        );
        unauthorized(
          await h.raw(
            'POST',
            '/api/tasks',
            {
              ...signAs(h.a, 'POST', '/api/tasks', deep, { appId: `${h.prefix}-nobody` }),
              'content-type': 'application/json',
            },
            deep,
          ),
        );
      }),
    30_000,
  );

  it.each([
    ['params nested 65 deep', '/api/tasks', () => task('deep65', `,"params":{"deep":${nested(65)}}`), 'params'],
    [
      'params nested 100,000 deep',
      '/api/tasks',
      () => task('deep1e5', `,"params":{"deep":${nested(100_000)}}`),
      'params',
    ],
    [
      'a batch task nested 100 deep',
      '/api/tasks/batch',
      () => `{"tasks":[${task('deep-b', `,"params":{"deep":${nested(100)}}`)}]}`,
      'tasks',
    ],
    [
      'a job nested 65 deep',
      '/api/jobs',
      () =>
        `{"code":"deep","handler":"noop","triggerType":"CRON","triggerExpr":"0 0 1 1 *","params":{"d":${nested(65)}}}`,
      'params',
    ],
  ])('[usual] a signed body with %s is a 400 naming the field', (_what, path, body, field) =>
    h.unchanged(async () => {
      refused(await signedPost(body(), {}, path), 400, 'VALIDATION', { field });
    }),
  );

  it.each([
    ['a top-level __proto__', '/api/tasks', () => task('proto1', ',"__proto__":{"polluted":1}'), '__proto__'],
    [
      'a top-level constructor.prototype',
      '/api/tasks',
      () => task('proto2', ',"constructor":{"prototype":{"polluted":1}}'),
      'constructor',
    ],
    [
      'params.__proto__',
      '/api/tasks',
      () => task('proto3', ',"params":{"a":1,"__proto__":{"polluted":1}}'),
      'params.__proto__',
    ],
    [
      'params.constructor.prototype',
      '/api/tasks',
      () => task('proto4', ',"params":{"constructor":{"prototype":{"polluted":1}}}'),
      'params.constructor',
    ],
    [
      'params.prototype',
      '/api/tasks',
      () => task('proto5', ',"params":{"prototype":{"polluted":1}}'),
      'params.prototype',
    ],
    [
      "a batch task's params.a.__proto__",
      '/api/tasks/batch',
      () => `{"tasks":[${task('proto6')},${task('proto7', ',"params":{"a":{"__proto__":{"polluted":1}}}')}]}`,
      'tasks[1].params.a.__proto__',
    ],
    [
      "a job's params.__proto__",
      '/api/jobs',
      () =>
        '{"code":"proto","handler":"noop","triggerType":"CRON","triggerExpr":"0 0 1 1 *","params":{"__proto__":{"polluted":1}}}',
      'params.__proto__',
    ],
    [
      "a job's shardParams[0].__proto__",
      '/api/jobs',
      () =>
        '{"code":"proto","handler":"noop","triggerType":"CRON","triggerExpr":"0 0 1 1 *","routingStrategy":"SHARDING_BROADCAST","shardTotal":1,"shardParams":[{"__proto__":{"polluted":1}}]}',
      'shardParams[0].__proto__',
    ],
    [
      "a trigger's params.__proto__",
      '/api/jobs/{jobA}/trigger',
      () => '{"params":{"__proto__":{"polluted":1}}}',
      'params.__proto__',
    ],
    [
      "a client's __proto__ (scopes: admin)",
      '/api/clients',
      () => `{"appId":"${h.prefix}-proto","__proto__":{"scopes":["admin"],"polluted":1}}`,
      '__proto__',
    ],
  ])('[usual] a prototype-pollution key, %s, is a 400 naming it, and pollutes nothing', (_what, path, body, field) =>
    h.unchanged(async () => {
      const target = path.replace('{jobA}', h.jobA.id);
      const app = target === '/api/clients' ? h.admin : h.a;
      const sent = body();
      const res = await h.raw(
        'POST',
        target,
        { ...signAs(app, 'POST', target, sent), 'content-type': 'application/json' },
        sent,
      );
      refused(res, 400, 'VALIDATION', { field });
    }),
  );

  it('[usual] prototype-pollution keys in a PATCH (job, client) and in a query string are a 400', () =>
    h.unchanged(async () => {
      const patchJob = '{"params":{"constructor":{"prototype":{"polluted":1}}}}';
      const jobPath = `/api/jobs/${h.jobA.id}`;
      refused(
        await h.raw(
          'PATCH',
          jobPath,
          { ...signAs(h.a, 'PATCH', jobPath, patchJob), 'content-type': 'application/json' },
          patchJob,
        ),
        400,
        'VALIDATION',
        { field: 'params.constructor' },
      );
      const patchClient = '{"constructor":{"prototype":{"polluted":1}}}';
      const clientPath = `/api/clients/${h.b.appId}`;
      refused(
        await h.raw(
          'PATCH',
          clientPath,
          { ...signAs(h.admin, 'PATCH', clientPath, patchClient), 'content-type': 'application/json' },
          patchClient,
        ),
        400,
        'VALIDATION',
        { field: 'constructor' },
      );
      for (const q of ['__proto__[polluted]=1', 'constructor[prototype][polluted]=1', '__proto__.polluted=1']) {
        refused(await h.a.request('GET', `/api/jobs?${q}`), 400, 'VALIDATION');
      }
    }));

  it(`[bounded inputs] an object of ${MAX_OBJECT_KEYS + 1} keys is a 400 naming it, before it is validated`, () =>
    h.unchanged(async () => {
      const problem = refused(
        await signedPost(task('keys', `,"delayMs":3600000,"params":${keys(MAX_OBJECT_KEYS + 1)}`)),
        400,
        'VALIDATION',
        { field: 'params' },
      );
      expect(problem.detail).toMatch(new RegExp(`more than ${MAX_OBJECT_KEYS} keys`));
    }));

  it(`[bounded inputs] a 2 MiB body of 180,000 keys (16 s of validation) is a 400 naming the field, before it is validated`, () =>
    h.unchanged(async () => {
      const problem = refused(await signedPost(task('many-keys', `,"params":${keys(180_000)}`)), 400, 'VALIDATION', {
        field: 'params',
      });
      expect(problem.detail).toMatch(new RegExp(`more than ${MAX_OBJECT_KEYS} keys`));
    }));

  it(`[bounded inputs] a body of more than ${MAX_BODY_VALUES} JSON values is a 400 naming the top-level field holding them`, () =>
    h.unchanged(async () => {
      const objects = `[${Array.from({ length: 600_000 }, () => '{}').join(',')}]`;
      for (const [body, field] of [
        [task('values', `,"junk":${objects}`), 'junk'],
        [task('values2', `,"params":{"a":${objects}}`), 'params'],
      ]) {
        const problem = refused(await signedPost(body), 400, 'VALIDATION', { field });
        expect(problem.detail).toMatch(new RegExp(`more than ${MAX_BODY_VALUES} JSON values`));
      }
    }));

  it(`[bounded inputs] a task whose params hold ${MAX_OBJECT_KEYS} keys is still taken`, async () => {
    expect((await signedPost(task('keys-ok', `,"delayMs":3600000,"params":${keys(MAX_OBJECT_KEYS)}`))).status).toBe(
      202,
    );
  });
}

function headerLines(headers: Record<string, string>): string {
  return Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
}
