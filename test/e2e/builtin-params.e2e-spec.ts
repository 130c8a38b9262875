import { Injectable, Module } from '@nestjs/common';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { JobHandler, type JobContext } from '../../src/modules/execution/index.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { clusterEnv, signedClient, standaloneEnv, startNode, TestNode, uniqueNamespace } from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';

type Problem = { field?: string; detail?: string };

/**
 * The built-in handlers' params are checked when a task or job is submitted (found by the new-user walk-through:
 * an `http` task without `url` was accepted with 202 and only FAILED when it ran, its error naming no field).
 * Both shapes: clustered, the API has no executor, and still knows what the built-ins accept (and a read of a task
 * says when it waits for an executor advertising its handler).
 */
describe.each([
  ['standalone', () => standaloneEnv({ LOG_LEVEL: 'error' })],
  ['cluster (api only)', () => clusterEnv(uniqueNamespace('e2e-bparams'), { ROLES: 'api', LOG_LEVEL: 'error' })],
])('built-in handler params checked on submit (%s)', (shape, env) => {
  let node: TestNode;
  let client: TickwheelClient;
  beforeAll(async () => {
    node = await startNode(env());
    client = await signedClient(node, undefined, [...DEFAULT_SCOPES, Scope.SHELL]);
  }, 30_000);
  afterAll(async () => node?.close());

  const expect400 = async (method: string, path: string, body: unknown, field: string, detail?: RegExp) => {
    const res = await client.request<Problem>(method, path, body);
    expect([res.status, res.body.field]).toEqual([400, field]);
    if (detail) expect(res.body.detail).toMatch(detail);
  };

  it('should refuse an http task without a url, or with a bad one, or with an unknown field, naming it', async () => {
    await expect400(
      'POST',
      '/api/tasks',
      { requestId: 'p-1', handler: 'http' },
      'params.url',
      /^params\.url is required/,
    );
    await expect400(
      'POST',
      '/api/tasks',
      { requestId: 'p-2', handler: 'http', params: { url: 'not a url' } },
      'params.url',
    );
    await expect400(
      'POST',
      '/api/tasks',
      { requestId: 'p-3', handler: 'http', params: { url: 'http://127.0.0.1:9/', methd: 'GET' } },
      'params.methd',
      /unknown field/,
    );
    expect((await client.request('GET', '/api/tasks/p-1')).status).toBe(404);
    const ok = await client.request('POST', '/api/tasks', {
      requestId: 'p-4',
      handler: 'http',
      params: { url: 'http://127.0.0.1:9/', method: 'POST' },
      delayMs: 3_600_000,
    });
    expect(ok.status).toBe(202);
  });

  it('should refuse a noop sleepMs that is not an integer from 0 to 60,000, naming params.sleepMs', async () => {
    for (const [i, sleepMs] of [-1, 60_001, 2.5, '50'].entries())
      await expect400(
        'POST',
        '/api/tasks',
        { requestId: `s-${i}`, handler: 'noop', params: { sleepMs } },
        'params.sleepMs',
        /must be an integer from 0 to 60000/,
      );
    const ok = await client.request('POST', '/api/tasks', {
      requestId: 's-ok',
      handler: 'noop',
      params: { sleepMs: 60_000 },
      delayMs: 3_600_000,
    });
    expect(ok.status).toBe(202);
  });

  it('should refuse an http url the egress policy refuses without DNS, in a task, a batch and a job (and accept a re-opened one)', async () => {
    // The test nodes run with EGRESS_ALLOW=*,127.0.0.1: 127.0.0.1 is re-opened, the rest of the refused set is not.
    const refused: Array<[string, RegExp]> = [
      [
        'http://169.254.169.254/latest/meta-data/',
        /^params\.url is refused by the egress policy: 169\.254\.169\.254:80 is a cloud metadata address \(EGRESS_ALLOW to allow it\)$/,
      ],
      [
        'http://metadata.google.internal/computeMetadata/v1/',
        /metadata\.google\.internal:80 is a cloud metadata address/,
      ],
      ['http://localhost:6379/', /localhost:6379 is loopback/],
      ['http://[::1]:3306/', /\[::1\]:3306 is loopback/],
      ['http://[::ffff:127.0.0.2]/', /127\.0\.0\.2:80 is loopback/],
      ['http://0/', /0\.0\.0\.0:80 is unspecified/],
      ['http://[fe80::1]:8080/', /link-local/],
    ];
    for (const [i, [url, detail]] of refused.entries())
      await expect400(
        'POST',
        '/api/tasks',
        { requestId: `e-${i}`, handler: 'http', params: { url } },
        'params.url',
        detail,
      );
    await expect400(
      'POST',
      '/api/tasks/batch',
      {
        tasks: [
          { requestId: 'eb-0', handler: 'http', params: { url: 'http://127.0.0.1:9/' }, delayMs: 3_600_000 },
          { requestId: 'eb-1', handler: 'http', params: { url: 'http://2852039166/' } },
        ],
      },
      'tasks[1].params.url',
      /169\.254\.169\.254:80 is a cloud metadata address/,
    );
    expect((await client.request('GET', '/api/tasks/eb-0')).status).toBe(404);
    const job = {
      code: 'egress-job',
      handler: 'http',
      triggerType: 'FIXED_RATE',
      triggerExpr: '3600000',
      enabled: false,
    };
    await expect400(
      'POST',
      '/api/jobs',
      { ...job, params: { url: 'http://169.254.169.254/' } },
      'params.url',
      /metadata/,
    );
    await createJob(client, { ...job, params: { url: 'http://127.0.0.1:9/' } });
    await expect400(
      'PATCH',
      '/api/jobs/egress-job',
      { params: { url: 'http://localhost/' } },
      'params.url',
      /loopback/,
    );
    await expect400(
      'POST',
      '/api/jobs/egress-job/trigger',
      { params: { url: 'http://[::1]/' } },
      'params.url',
      /loopback/,
    );
    const reopened = await client.request('POST', '/api/tasks', {
      requestId: 'e-ok',
      handler: 'http',
      params: { url: 'http://2130706433:9/' },
      delayMs: 3_600_000,
    });
    expect(reopened.status).toBe(202); // 127.0.0.1, re-opened by the test setting, in its decimal spelling
  });

  it('should refuse a batch with one bad task, naming it, and write none of it', async () => {
    await expect400(
      'POST',
      '/api/tasks/batch',
      {
        tasks: [
          { requestId: 'b-0', handler: 'http', params: { url: 'http://127.0.0.1:9/' }, delayMs: 3_600_000 },
          { requestId: 'b-1', handler: 'http', params: {} },
        ],
      },
      'tasks[1].params.url',
    );
    expect((await client.request('GET', '/api/tasks/b-0')).status).toBe(404);
  });

  it('should say on reading a task that it waits for an executor advertising its handler (cluster)', async () => {
    if (shape === 'standalone') return; // standalone refuses a handler it does not have at submit
    expect((await client.request('POST', '/api/tasks', { requestId: 'n-1', handler: 'nobody.has.it' })).status).toBe(
      202,
    );
    const read = await client.request<{ status: string; note?: string }>('GET', '/api/tasks/n-1');
    expect(read.body).toMatchObject({
      status: 'PENDING',
      note: "no live executor advertises handler 'nobody.has.it': it stays PENDING until one does",
    });
    expect(
      (await client.request('POST', '/api/tasks', { requestId: 'n-2', handler: 'nobody.has.it', delayMs: 3_600_000 }))
        .status,
    ).toBe(202);
    expect((await client.request<{ note?: string }>('GET', '/api/tasks/n-2')).body.note).toBeUndefined(); // not due yet
  });

  it('should refuse a shell task while no executor could run it, before its params', async () => {
    if (shape === 'standalone') return; // standalone refuses the shell handler itself (off unless TICKWHEEL_ALLOW_SHELL)
    // Clustered, shell work is never accepted to wait for an executor (docs/tenancy.md "Shell isolation");
    // shell-scope.e2e checks argv with one.
    await expect400(
      'POST',
      '/api/tasks',
      { requestId: 's-1', handler: 'shell', params: { argv: 'ls -l' } },
      'handler',
      /no live executor advertises handler 'shell'/,
    );
  });

  it('should refuse a job whose fires could only fail: on create, on a PATCH of its params, on a trigger-now with its own params', async () => {
    const job = (code: string, extra: Record<string, unknown>) => ({
      code,
      handler: 'http',
      triggerType: 'FIXED_RATE',
      triggerExpr: '3600000',
      ...extra,
    });
    await expect400('POST', '/api/jobs', job('no-url', {}), 'params.url');
    // sharded: shard 1's shardParams break the url the job's params give
    await expect400(
      'POST',
      '/api/jobs',
      job('shard-bad', {
        params: { url: 'http://127.0.0.1:9/' },
        routingStrategy: 'SHARDING_BROADCAST',
        shardTotal: 2,
        shardParams: [{}, { url: 'ftp://x' }],
      }),
      'params.url',
      /shard 1/,
    );
    await createJob(client, job('good', { params: { url: 'http://127.0.0.1:9/' }, enabled: false }));
    await expect400('PATCH', '/api/jobs/good', { params: { url: '' } }, 'params.url');
    expect((await client.request('PATCH', '/api/jobs/good', { description: 'still fine' })).status).toBe(200);
    await expect400('POST', '/api/jobs/good/trigger', { params: { method: 'GET' } }, 'params.url');
  });
});

@Injectable()
@JobHandler('http')
class ImpostorHttpHandler {
  async execute(_ctx: JobContext): Promise<string> {
    return 'not the built-in';
  }
}

@Module({ providers: [ImpostorHttpHandler] })
class ImpostorModule {}

describe('built-in handler names are reserved', () => {
  it("should refuse to boot an application with its own @JobHandler('http')", async () => {
    await expect(startNode(standaloneEnv({ LOG_LEVEL: 'error' }), { imports: [ImpostorModule] })).rejects.toThrow(
      "'http' is the name of a built-in handler",
    );
  });
});
