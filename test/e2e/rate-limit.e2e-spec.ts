import { randomBytes } from 'node:crypto';
import { TickwheelClient, TickwheelResponse } from '../../src/client/tickwheel-client.js';
import {
  clusterEnv,
  signedClient,
  standaloneEnv,
  startNode,
  TestNode,
  UNLIMITED,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

/** The settings every node of these tests runs with: 1 request/s, bursts of 5. */
const LIMITS = { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '5' };

type Answer = TickwheelResponse<Record<string, unknown>>;

const nodesCall = (c: TickwheelClient) => c.request<Record<string, unknown>>('GET', '/api/nodes');
const burst = (c: TickwheelClient, n: number) => Promise.all(Array.from({ length: n }, () => nodesCall(c)));

/** Sends GET /api/nodes until one is refused (at most `max` calls); the answers, the refusal last. */
async function untilRefused(c: TickwheelClient, max = 20): Promise<Answer[]> {
  const answers: Answer[] = [];
  while (answers.length < max) {
    answers.push(await nodesCall(c));
    if (answers[answers.length - 1].status === 429) break;
  }
  return answers;
}

/** Asserts a 429 problem with Retry-After (whole seconds, at least 1) and the RateLimit headers; returns Retry-After. */
function expectRateLimited(a: Answer, burstSize: number): number {
  expect({ status: a.status, code: a.body.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
  expect(a.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(a.body.detail).toMatch(/rate limit/);
  const retryAfter = a.headers.get('retry-after') ?? '';
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  expect(a.headers.get('ratelimit-limit')).toBe(String(burstSize));
  expect(a.headers.get('ratelimit-remaining')).toBe('0');
  return Number(retryAfter);
}

/**
 * Per-app request rate limits (docs/api.md "Rate limits"): a token bucket per app (cluster-wide in Redis, in process
 * standalone), defaults from RATE_LIMIT_PER_SECOND / RATE_LIMIT_BURST, overridable per client, answered
 * with 429, Retry-After and the RateLimit headers (draft-ietf-httpapi-ratelimit-headers-06).
 */
function describeRateLimits(shape: string, start: () => Promise<TestNode>): void {
  describe(`rate limits (${shape})`, () => {
    let node: TestNode;
    beforeAll(async () => (node = await start()), 60_000);
    afterAll(async () => node?.close());

    it('should let a burst through with the RateLimit headers on every answer, then answer 429 with Retry-After', async () => {
      const c = await signedClient(node);
      const first = await burst(c, 5);
      expect(first.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      for (const a of first) {
        expect([a.headers.get('ratelimit-limit'), a.headers.get('ratelimit-policy')]).toEqual(['5', '5;w=5']);
        expect(Number(a.headers.get('ratelimit-remaining'))).toBeLessThan(5);
        expect(Number(a.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
      }
      const more = await untilRefused(c);
      expect(more.length).toBeLessThanOrEqual(4); // refilled at 1/s while they ran: a loaded machine may let one or two more through
      expectRateLimited(more[more.length - 1], 5);
      const missing = await c.request<Record<string, unknown>>('GET', '/api/tasks/no-such-task');
      expect(missing.headers.get('ratelimit-limit')).toBe('5'); // refused or not found: the headers are there either way
    });

    it('should let the app in again once its bucket refilled, no later than Retry-After says', async () => {
      const c = await signedClient(node);
      await burst(c, 5);
      const refused = (await untilRefused(c)).pop() as Answer;
      const retryAfterMs = 1000 * expectRateLimited(refused, 5);
      // refused calls take no token, so polling does not delay the refill; the slack is for a loaded machine
      await waitFor(
        'a request let through again',
        async () => (await nodesCall(c)).status === 200,
        retryAfterMs + 3000,
        100,
      );
    });

    it("should apply a client's own rate_limit / rate_burst over the settings", async () => {
      // 5/s: sequential calls outrun the refill unless each takes 200 ms (a faster rate was never refused on a loaded machine)
      const roomy = await signedClient(node, undefined, undefined, { rateLimit: 5, rateBurst: 20 });
      const answers = await burst(roomy, 20);
      expect(
        answers.every(
          (a) =>
            a.status === 200 &&
            a.headers.get('ratelimit-limit') === '20' &&
            a.headers.get('ratelimit-policy') === '20;w=4',
        ),
      ).toBe(true);
      expectRateLimited((await untilRefused(roomy, 60)).pop() as Answer, 20);
      const tight = await signedClient(node, undefined, undefined, { rateLimit: 1, rateBurst: 2 });
      expect((await burst(tight, 2)).map((a) => a.status)).toEqual([200, 200]);
      expectRateLimited((await untilRefused(tight, 3)).pop() as Answer, 2);
    });

    it('should not limit a client whose rate_limit is 0, nor send it RateLimit headers', async () => {
      const free = await signedClient(node, undefined, undefined, UNLIMITED);
      const answers = await burst(free, 40);
      expect(answers.every((a) => a.status === 200 && a.headers.get('ratelimit-limit') === null)).toBe(true);
    });

    it("should not let unsigned, mis-signed or replayed requests drain an app's bucket", async () => {
      const appId = `rl-${randomBytes(4).toString('hex')}`;
      const c = await signedClient(node, appId);
      const forger = new TickwheelClient({ baseUrl: node.url, appId, secret: 'not-the-secret' });
      expect((await burst(forger, 20)).every((a) => a.status === 401)).toBe(true);
      const headers = c.sign('GET', '/api/nodes', '');
      expect((await fetch(`${node.url}/api/nodes`, { headers })).status).toBe(200);
      for (let i = 0; i < 10; i++) expect((await fetch(`${node.url}/api/nodes`, { headers })).status).toBe(401);
      expect((await burst(c, 4)).map((a) => a.status)).toEqual([200, 200, 200, 200]);
    });

    it('should refuse over the limit before the route runs (nothing is created), and keep other apps apart', async () => {
      const c = await signedClient(node);
      await burst(c, 5);
      await untilRefused(c);
      const requestId = `rl-${randomBytes(4).toString('hex')}`;
      expect((await c.submitTask({ requestId, handler: 'noop' })).status).toBe(429);
      const rows: unknown[] = await node.ds.query('SELECT id FROM job_instance WHERE request_id = ?', [requestId]);
      expect(rows).toHaveLength(0);
      expect((await burst(await signedClient(node), 5)).map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    });
  });
}

describeRateLimits('standalone', () => startNode(standaloneEnv(LIMITS)));
describeRateLimits('cluster: MariaDB + Redis', () => startNode(clusterEnv(uniqueNamespace('e2e-rate'), LIMITS)));

describe('rate limits across API nodes (cluster)', () => {
  const ns = uniqueNamespace('e2e-rate2');
  let a: TestNode;
  let b: TestNode;
  beforeAll(async () => {
    a = await startNode(clusterEnv(ns, { ...LIMITS, ROLES: 'api,scheduler' }));
    b = await startNode(clusterEnv(ns, { ...LIMITS, ROLES: 'api' }));
  }, 60_000);
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('should share one bucket per app between every API node (Redis), whichever node a request reaches', async () => {
    const onA = await signedClient(a);
    const viaA = await signedClient(a, `shared-${randomBytes(4).toString('hex')}`);
    const viaB = new TickwheelClient({ baseUrl: b.url, appId: viaA.appId, secret: viaA.secret });
    const first = await Promise.all([
      ...Array.from({ length: 3 }, () => nodesCall(viaA)),
      ...Array.from({ length: 2 }, () => nodesCall(viaB)),
    ]);
    expect(first.map((x) => x.status)).toEqual([200, 200, 200, 200, 200]);
    const more = await untilRefused(viaB);
    expect(more.length).toBeLessThanOrEqual(4);
    expectRateLimited(more[more.length - 1], 5);
    expect((await nodesCall(onA)).status).toBe(200); // another app, untouched
  });
});
