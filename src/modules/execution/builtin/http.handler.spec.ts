import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { never, rejection } from '../../../../test/utils/async.js';
import { ValidationError } from '../../../common/index.js';
import { EgressPolicy, systemResolver } from '../../egress/index.js';
import { type JobContext, JobFailure } from '../../handler/index.js';
import { HttpJobHandler } from './http.handler.js';

let server: Server;
let url: string;
const received: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    req.on('end', () => res.writeHead(req.url === '/fail' ? 503 : 200, { 'content-type': 'text/plain' }).end('ok'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** The handler with loopback allowed (the receiver's address) and no app list. */
const handler = () =>
  new HttpJobHandler(EgressPolicy.fromSettings({ allow: '127.0.0.1' }), async () => null, systemResolver);

function ctx(params: unknown, over: Partial<JobContext> = {}): JobContext {
  return {
    requestId: 'req-1',
    instanceId: 'inst-1',
    appId: 'app-1',
    jobCode: null,
    params,
    attempt: 3,
    maxAttempts: 5,
    fencingToken: 7,
    shardIndex: 0,
    shardTotal: 1,
    fireTime: 0,
    traceId: 't',
    traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    signal: never(),
    logger: new Logger('t'),
    progress: () => undefined,
    heartbeat: () => undefined,
    checkpoint: async () => undefined,
    lastCheckpoint: null,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    ...over,
  };
}

describe('HttpJobHandler', () => {
  beforeEach(() => (received.length = 0));

  it('should send the request id, instance id, attempt and fencing token as headers', async () => {
    const result = await handler().execute(ctx({ url: `${url}/ok`, headers: { 'X-Custom': 'kept' } }));
    expect(result.status).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      'x-tickwheel-request-id': 'req-1',
      'x-tickwheel-instance-id': 'inst-1',
      'x-tickwheel-attempt': '3',
      'x-tickwheel-fencing-token': '7',
      'x-custom': 'kept',
    });
  });

  it('should log each call to ctx.log without its query string (a token there stays out of the logs)', async () => {
    const lines: string[] = [];
    const log = { info: (l: string) => lines.push(`info ${l}`), warn: (l: string) => lines.push(`warn ${l}`) };
    const over = { log: { ...log, error: () => undefined } } as Partial<JobContext>;
    await handler().execute(ctx({ url: `${url}/ok?token=s3cret`, method: 'POST', body: '{}' }, over));
    await expect(handler().execute(ctx({ url: `${url}/fail` }, over))).rejects.toThrow('HTTP 503');
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^info POST ${url}/ok answered 200 in \\d+ ms$`)),
      expect.stringMatching(new RegExp(`^info GET ${url}/fail answered 503 in \\d+ ms$`)),
    ]);
    expect(lines.join('\n')).not.toContain('s3cret');
  });

  it('should not let params headers override its own, whatever their case', async () => {
    await handler().execute(
      ctx({
        url,
        headers: { 'x-tickwheel-attempt': '1', 'X-TICKWHEEL-FENCING-TOKEN': '99', 'x-tickwheel-request-id': 'forged' },
      }),
    );
    expect(received[0]['x-tickwheel-attempt']).toBe('3');
    expect(received[0]['x-tickwheel-fencing-token']).toBe('7');
    expect(received[0]['x-tickwheel-request-id']).toBe('req-1');
  });

  it('should still refuse malformed headers naming params.headers, and fail on a 5xx answer', async () => {
    const bad = await rejection(handler().execute(ctx({ url, headers: ['x'] })));
    expect(bad).toBeInstanceOf(ValidationError);
    expect((bad as ValidationError).field).toBe('params.headers');
    expect(received).toHaveLength(0);
    const failed = await rejection(handler().execute(ctx({ url: `${url}/fail` })));
    expect(failed.message).toBe('HTTP 503');
    expect((failed as JobFailure).retryable).toBe(true);
  });

  it(
    'should fail for good (JobFailure, not retryable) when the ' + 'egress policy refuses the url, sending nothing',
    async () => {
      const strict = new HttpJobHandler(EgressPolicy.fromSettings(), async () => null, systemResolver);
      const refused = await rejection(strict.execute(ctx({ url: `${url}/ok`, method: 'POST', body: 'x' })));
      expect(refused).toBeInstanceOf(JobFailure);
      expect((refused as JobFailure).retryable).toBe(false);
      const loopbackRefused = /^egress refused: 127\.0\.0\.1:\d+ is loopback \(EGRESS_ALLOW to allow it\)$/;
      expect(refused.message).toMatch(/^HTTP POST http:\/\/127\.0\.0\.1:\d+\/ok: /);
      expect(refused.message.replace(/^HTTP POST \S+: /, '')).toMatch(loopbackRefused);
      expect(received).toHaveLength(0);
    },
  );

  it("should narrow the policy to the egress allow-list of the instance's app", async () => {
    const asked: string[] = [];
    const lists: Record<string, string[] | null> = { 'app-open': null, 'app-narrow': ['api.example.com'] };
    const h = new HttpJobHandler(
      EgressPolicy.fromSettings({ allow: '127.0.0.1' }),
      async (appId) => (asked.push(appId), lists[appId]),
      systemResolver,
    );
    expect((await h.execute(ctx({ url }, { appId: 'app-open' }))).status).toBe(200);
    const refused = await rejection(h.execute(ctx({ url }, { appId: 'app-narrow' })));
    expect(refused.message).toMatch(/is not in the app's egress allow-list \(egressAllow\)$/);
    expect((refused as JobFailure).retryable).toBe(false);
    expect([asked, received.length]).toEqual([['app-open', 'app-narrow'], 1]);
  });
});
