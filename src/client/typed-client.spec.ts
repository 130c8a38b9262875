import { SIGNATURE_HEADERS, signRequest } from '../common/index.js';
import { createTickwheelClient, ProblemError, type TypedClientOptions, unwrap } from './index.js';

const APP = 'app-1';
const SECRET = 'secret-of-app-1';

/** A fake server: answers in turn (a thrown Error is a network error), recording each request as sent. */
function fakeServer(answers: Array<Response | Error>) {
  const sent: Array<{ request: Request; body: string }> = [];
  const fetch = async (request: Request) => {
    sent.push({ request, body: await request.clone().text() });
    const next = answers.shift() ?? new Response('{}', { status: 200 });
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, sent };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
  });
const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  json(status, { type: 'about:blank', title: code.toLowerCase(), status, detail: 'd', code }, headers);

function client(answers: Array<Response | Error>, extra: Partial<TypedClientOptions> = {}) {
  const server = fakeServer(answers);
  const sleeps: number[] = [];
  const sleep = async (ms: number) => void sleeps.push(ms);
  const c = createTickwheelClient({
    baseUrl: 'http://tw.test:3000/',
    appId: APP,
    secret: SECRET,
    ...server,
    sleep,
    ...extra,
  });
  return { c, sent: server.sent, sleeps };
}

/** What the server checks (docs/api.md "Signing"): the v2 HMAC of the target as sent and of the body bytes. */
function expectSigned({ request, body }: { request: Request; body: string }) {
  const url = new URL(request.url);
  const h = (name: string) => request.headers.get(name) ?? '';
  expect(h(SIGNATURE_HEADERS.appId)).toBe(APP);
  const signature = signRequest(SECRET, {
    appId: APP,
    method: request.method,
    pathAndQuery: url.pathname + url.search,
    timestampMs: h(SIGNATURE_HEADERS.timestamp),
    nonce: h(SIGNATURE_HEADERS.nonce),
    body,
  });
  expect(h(SIGNATURE_HEADERS.signature)).toBe(signature);
}

describe('createTickwheelClient', () => {
  it('should sign the path, query and body exactly as sent', async () => {
    const { c, sent } = client([json(200, { total: 0, items: [] }), json(202, { requestId: 'a b/c' })]);
    await c.GET('/api/jobs', { params: { query: { limit: 5, offset: 0 } } });
    await c.POST('/api/tasks', { body: { requestId: 'a b/c', handler: 'noop', params: { text: 'é ✓' } } });
    await c.GET('/api/tasks/{requestId}', { params: { path: { requestId: 'a b/c' } } });
    expect(
      sent.map((s) => `${s.request.method} ${new URL(s.request.url).pathname}${new URL(s.request.url).search}`),
    ).toEqual(['GET /api/jobs?limit=5&offset=0', 'POST /api/tasks', 'GET /api/tasks/a%20b%2Fc']);
    expect(JSON.parse(sent[1].body)).toEqual({ requestId: 'a b/c', handler: 'noop', params: { text: 'é ✓' } });
    sent.forEach(expectSigned);
  });

  it('should try a task submit with a requestId again after a 503, signed anew, as one logical call', async () => {
    const { c, sent, sleeps } = client([
      problem(503, 'UNAVAILABLE'),
      json(202, { requestId: 'r1', status: 'PENDING' }),
    ]);
    const task = unwrap(await c.POST('/api/tasks', { body: { requestId: 'r1', handler: 'noop' } }));
    expect(task.requestId).toBe('r1');
    expect(sent).toHaveLength(2);
    expect(sent[0].body).toBe(sent[1].body);
    expect(sent[0].request.headers.get('x-nonce')).not.toBe(sent[1].request.headers.get('x-nonce'));
    sent.forEach(expectSigned);
    expect(sleeps).toHaveLength(1);
  });

  it('should not try a non-idempotent POST again', async () => {
    const submit = client([problem(503, 'UNAVAILABLE')]);
    const res = await submit.c.POST('/api/tasks', { body: { handler: 'noop' } });
    expect([res.response.status, submit.sent.length]).toEqual([503, 1]);
    const batch = client([problem(502, 'BAD_GATEWAY')]);
    await batch.c.POST('/api/tasks/batch', {
      body: { tasks: [{ requestId: 'x', handler: 'noop' }, { handler: 'noop' }] },
    });
    expect(batch.sent).toHaveLength(1);
    const created = client([new Error('socket hang up')]);
    await expect(created.c.POST('/api/clients', { body: { appId: 'new-app' } })).rejects.toThrow('socket hang up');
    expect(created.sent).toHaveLength(1);
  });

  it('should try a GET again after a network error and a batch whose every task has a requestId', async () => {
    const get = client([new TypeError('fetch failed'), json(200, { requestId: 'r1' })]);
    expect(unwrap(await get.c.GET('/api/tasks/{requestId}', { params: { path: { requestId: 'r1' } } }))).toEqual({
      requestId: 'r1',
    });
    expect(get.sent).toHaveLength(2);
    const batch = client([problem(504, 'TIMEOUT'), json(202, { results: [] })]);
    await batch.c.POST('/api/tasks/batch', { body: { tasks: [{ requestId: 'b1', handler: 'noop' }] } });
    expect(batch.sent).toHaveLength(2);
  });

  it('should wait a 429 Retry-After, give up on one beyond the bound, and stop after `retries`', async () => {
    const limited = client([problem(429, 'RATE_LIMITED', { 'retry-after': '2' }), json(200, { total: 0, items: [] })]);
    await limited.c.GET('/api/nodes');
    expect([limited.sent.length, limited.sleeps]).toEqual([2, [2000]]);
    const far = client([problem(429, 'RATE_LIMITED', { 'retry-after': '60' })]);
    expect((await far.c.GET('/api/nodes')).response.status).toBe(429);
    expect(far.sent).toHaveLength(1);
    const down = client(
      [503, 503, 503, 503].map((s) => problem(s, 'UNAVAILABLE')),
      { retries: 2 },
    );
    expect((await down.c.DELETE('/api/callbacks', {})).response.status).toBe(503);
    expect(down.sent).toHaveLength(3);
    expect(down.sleeps[1]).toBeGreaterThanOrEqual(down.sleeps[0]);
  });

  it('should not try again a call aborted while it waits', async () => {
    const abort = new AbortController();
    const { c, sent } = client([problem(503, 'UNAVAILABLE')], { sleep: async () => abort.abort(new Error('stop')) });
    await expect(c.GET('/api/nodes', { signal: abort.signal })).rejects.toThrow('stop');
    expect(sent).toHaveLength(1);
  });

  it('should give a mutating job call one Idempotency-Key for all its tries, unless turned off', async () => {
    const { c, sent } = client([problem(502, 'BAD_GATEWAY'), json(200, {})]);
    await c.POST('/api/jobs/{id}/pause', { params: { path: { id: 'nightly' } } });
    const keys = sent.map((s) => s.request.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys).toEqual([keys[0], keys[0]]);
    const off = client([problem(502, 'BAD_GATEWAY')], { jobIdempotencyKeys: false });
    await off.c.PATCH('/api/jobs/{id}', { params: { path: { id: 'nightly' } }, body: { description: 'x' } });
    expect([off.sent.length, off.sent[0].request.headers.has('idempotency-key')]).toEqual([1, false]);
  });

  it('should throw a typed ProblemError from unwrap on an error answer', async () => {
    const { c } = client([problem(404, 'NOT_FOUND')]);
    const res = await c.GET('/api/jobs/{id}', { params: { path: { id: 'missing' } } });
    expect(() => unwrap(res)).toThrow(ProblemError);
    const err = (() => {
      try {
        unwrap(res);
      } catch (e) {
        return e as ProblemError;
      }
    })();
    expect([err?.status, err?.code, err?.problem.detail]).toEqual([404, 'NOT_FOUND', 'd']);
  });

  it('should refuse options out of bounds', () => {
    const base = { baseUrl: 'http://x', appId: APP, secret: SECRET };
    expect(() => createTickwheelClient({ ...base, retries: 11 })).toThrow(RangeError);
    expect(() => createTickwheelClient({ ...base, baseUrl: 'not a url' })).toThrow(TypeError);
    expect(() => createTickwheelClient({ ...base, secret: '' })).toThrow(TypeError);
  });
});
