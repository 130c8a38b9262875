import { Injectable, Module } from '@nestjs/common';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { JobContext, JobHandler, JobHandlerImpl } from '../../src/modules/execution/index.js';
import { MAX_ERROR_CHARS, MAX_RESULT_BYTES } from '../../src/common/index.js';
import { signedClient, standaloneEnv, startNode, TestNode, waitFor } from '../utils/test-node.js';
import { type CallbackReceiver, startCallbackReceiver } from '../utils/callback-receiver.js';

const HUGE = 100_000;
const MARK = / …\[(\d+) characters cut\]$/;

/** `cut.huge`: fails with an error of {@link HUGE} characters, or (params.result) returns a result of as many. */
@Injectable()
@JobHandler('cut.huge')
class HugeHandler implements JobHandlerImpl {
  execute(ctx: JobContext): Promise<unknown> {
    if ((ctx.params as { result?: boolean }).result) return Promise.resolve({ s: 'r'.repeat(HUGE) });
    return Promise.reject(new Error('e'.repeat(HUGE)));
  }
}

/** Releases of attempt 1 of `fence.hold`, by requestId; it then throws or returns as its params say. */
const releases = new Map<string, () => void>();

/**
 * `fence.hold`: attempt 1 hangs until released (it ignores its signal), then throws or returns; with `end: 'abort'`
 * it throws its signal's reason as soon as that aborts (released or not). Later attempts return.
 */
@Injectable()
@JobHandler('fence.hold')
class HoldHandler implements JobHandlerImpl {
  async execute(ctx: JobContext): Promise<unknown> {
    if (ctx.attempt > 1) return { attempt: ctx.attempt };
    const end = (ctx.params as { end: string }).end;
    await new Promise<void>((resolve, reject) => {
      releases.set(ctx.requestId, resolve);
      if (end === 'abort') ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error));
    });
    if (end !== 'return') throw new Error('gave up after the take-back');
    return { attempt: 1 };
  }
}

@Module({ providers: [HugeHandler, HoldHandler] })
class CutModule {}

interface Attempt {
  attempt: number;
  status: string;
  error: string | null;
  handlerEndedAt: string | null;
  lateStatus: string | null;
  lateError: string | null;
}
interface View {
  status: string;
  error: string | null;
  result: unknown;
  attempts: Attempt[];
}

/** A cut text: its bound kept, and the mark naming exactly the characters dropped from `original` chars. */
function expectMarkedCut(text: string, bound: number, original: number): void {
  expect(text.length).toBeLessThanOrEqual(bound);
  const m = MARK.exec(text);
  expect(m).not.toBeNull();
  expect(Number(m![1])).toBe(original - (text.length - m![0].length));
}

describe('bounded texts say they were cut, and a fenced-out handler records how it ended (standalone)', () => {
  let node: TestNode;
  let client: TickwheelClient;
  let receiver: CallbackReceiver;

  beforeAll(async () => {
    receiver = await startCallbackReceiver();
    // A long lease renewed rarely: only the test's own expiry takes an attempt back.
    node = await startNode(standaloneEnv({ LEASE_MS: '600000', LEASE_RENEW_MS: '300000' }), { imports: [CutModule] });
    client = await signedClient(node);
  }, 30_000);

  afterAll(async () => {
    for (const release of releases.values()) release();
    await node?.close();
    await receiver?.close();
  });

  const view = async (id: string) => (await client.getTask(id)).body as unknown as View;
  const settled = async (id: string) => {
    await waitFor(`${id} to end`, async () => ['SUCCESS', 'FAILED'].includes((await view(id)).status), 30_000, 50);
    return view(id);
  };

  it('should store a 100,000-character error cut within 4,000 characters with a mark, and send it so', async () => {
    const requestId = `huge-${Date.now()}`;
    const res = await client.submitTask({ requestId, handler: 'cut.huge', callbackUrl: receiver.url });
    expect(res.status).toBe(202);
    const done = await settled(requestId);
    expect(done.status).toBe('FAILED');
    expectMarkedCut(done.error as string, MAX_ERROR_CHARS, HUGE);
    expect(done.error!.startsWith('eeee')).toBe(true);
    expectMarkedCut(done.attempts[0].error as string, MAX_ERROR_CHARS, HUGE);
    await waitFor('the callback', async () => receiver.hits.some((h) => h.body.includes(requestId)), 30_000, 50);
    const sent = JSON.parse(receiver.hits.find((h) => h.body.includes(requestId))!.body) as { error: string };
    expect(sent.error).toBe(done.error);
  }, 60_000);

  it('should mark the excerpt of a result over its bound', async () => {
    const requestId = `big-${Date.now()}`;
    expect((await client.submitTask({ requestId, handler: 'cut.huge', params: { result: true } })).status).toBe(202);
    const done = await settled(requestId);
    expect(done.status).toBe('SUCCESS');
    const r = done.result as { truncated: boolean; excerpt: string };
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(r), 'utf8')).toBeLessThanOrEqual(MAX_RESULT_BYTES);
    expectMarkedCut(r.excerpt, MAX_RESULT_BYTES, JSON.stringify({ s: 'r'.repeat(HUGE) }).length);
  }, 60_000);

  // Fenced out, the attempt is aborted by the node's next beat (REVOKED: no longer RUNNING at its token): a handler
  // that honours it ends within the wind-down, one that ignores it ends when released, after the take-back either way.
  it.each([
    ['throws', 'throw', 'FAILED', 'gave up after the take-back'],
    ['returns', 'return', 'SUCCESS', null],
    ['throws on its abort', 'abort', 'FAILED', 'REVOKED'],
  ])(
    'should record late_status when a handler fenced out by a take-back later %s',
    async (_how, end, late, error) => {
      const requestId = `fence-${end}-${Date.now()}`;
      const body = { requestId, handler: 'fence.hold', params: { end }, maxAttempts: 2, retryBackoffMs: 0 };
      expect((await client.submitTask(body)).status).toBe(202);
      await waitFor('attempt 1 to start', async () => releases.has(requestId), 30_000, 20);
      // Its lease ran out (a node that beats but hangs): the reconciler takes the row back, attempt 2 runs and ends.
      await node.ds.query('UPDATE job_instance SET lease_until = 1 WHERE request_id = ?', [requestId]);
      const done = await settled(requestId);
      expect(done.status).toBe('SUCCESS');
      if (end !== 'abort') (releases.get(requestId) as () => void)();
      await waitFor(
        'attempt 1 to record its end',
        async () => (await view(requestId)).attempts[0].handlerEndedAt !== null,
      );
      const [first] = (await view(requestId)).attempts;
      expect(first.status).toBe('LEASE_LOST');
      expect(first.lateStatus).toBe(late);
      expect(first.lateError).toBe(error);
    },
    60_000,
  );
});
