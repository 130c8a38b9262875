import { DEFAULT_SCOPES } from '../../src/modules/metadata/index.js';
import { sleep } from '../utils/async.js';
import { type LimitReceiver, startLimitReceiver } from '../utils/limit-receiver.js';
import {
  type AppClient,
  clusterEnv,
  signedClient,
  standaloneEnv,
  startNode,
  statusCounts,
  type TestNode,
  uniqueNamespace,
  UNLIMITED,
  waitFor,
} from '../utils/test-node.js';

/** Small, so the starvation case's bound, (5 − 1) × aging, is reached in seconds. */
const AGING_MS = 300;
const LOW = 1;
const HIGH = 5;

/** One process with every role and a single worker slot, so the order of starts is the order of claims. */
const shapes: Array<[string, () => Promise<TestNode>]> = [
  ['standalone', () => startNode(standaloneEnv(settings()))],
  ['cluster', () => startNode(clusterEnv(uniqueNamespace('e2e-prio'), settings()))],
];

function settings(): Record<string, string> {
  return { EXECUTOR_CONCURRENCY: '1', PRIORITY_AGING_MS: String(AGING_MS), LOG_LEVEL: 'error' };
}

/** A task calling the receiver at `/<name>` with `priority`. */
const call = (rx: LimitReceiver, name: string, priority: number) => ({
  requestId: name,
  handler: 'http',
  params: { url: `${rx.url}/${name}` },
  priority,
});

/** Names of the tasks in the order their handlers started (one slot: the order they were claimed). */
const starts = (rx: LimitReceiver) => rx.calls.map((c) => c.path.slice(1));

/**
 * Priorities (docs/dispatch.md "Priorities"): within an app's share of a node's slots higher runs first, apps still
 * take turns, and waiting raises a lower priority so a steady stream of higher work never starves it.
 */
describe.each(shapes)('priorities (%s)', (_name, start) => {
  let node: TestNode;
  let rx: LimitReceiver;
  let hold = new Set<string>();
  let answerMs = 0;
  const app = (name: string): Promise<AppClient> =>
    signedClient(node, uniqueNamespace(name), DEFAULT_SCOPES, UNLIMITED);

  beforeAll(async () => {
    rx = await startLimitReceiver((path) => (hold.has(path) ? { hold: true } : { status: 200, delayMs: answerMs }));
    node = await start();
  }, 60_000);

  afterAll(async () => {
    await node?.close();
    await rx?.close();
  });

  async function allDone(n: number): Promise<void> {
    const ns = node.config.namespace;
    await waitFor(`${n} tasks to succeed`, async () => (await statusCounts(node.ds, ns)).SUCCESS === n, 90_000, 100);
  }

  it("should start 5 high tasks queued behind 50 low ones first, and another app's low task in its turn", async () => {
    const [a, b] = [await app('prio-a'), await app('prio-b')];
    hold = new Set(['/block']);
    expect((await a.submitTask(call(rx, 'block', LOW))).status).toBe(202);
    await waitFor('the blocker to hold the only slot', async () => rx.inFlight('/block') === 1, 15_000, 20);
    const lows = Array.from({ length: 50 }, (_, i) => call(rx, `a-low-${i}`, LOW));
    expect((await a.submitTasks(lows)).status).toBe(202);
    const highs = Array.from({ length: 5 }, (_, i) => call(rx, `a-high-${i}`, HIGH));
    expect((await a.submitTasks(highs.slice(0, 4))).status).toBe(202); // a batch
    expect((await a.submitTask(highs[4])).status).toBe(202); // and a single submit
    expect((await b.submitTask(call(rx, 'b-low', LOW))).status).toBe(202);
    const high = (await a.getTask('a-high-4')).body;
    expect([high.priority, (await a.getTask('a-low-0')).body.priority]).toEqual([HIGH, LOW]);
    expect((await b.getTask('b-low')).body.priority).toBe(LOW);

    hold = new Set();
    rx.release('/block');
    await allDone(57);
    const order = starts(rx).slice(1);
    expect(order).toHaveLength(56);
    // App B's turn comes right after A's first claim: A's priorities order A's work only.
    expect(order.indexOf('b-low')).toBe(1);
    const rest = order.filter((n) => n !== 'b-low');
    expect(rest.slice(0, 5).sort()).toEqual(highs.map((h) => h.requestId).sort());
    expect(rest.slice(5)).toEqual(lows.map((l) => l.requestId)); // equal priority: in their order
  }, 120_000);

  it(`should start a low task within the aging bound ((${HIGH} − ${LOW}) × ${AGING_MS} ms of arrivals) under a steady stream of high ones`, async () => {
    const c = await app('prio-stream');
    rx.calls.length = 0;
    answerMs = 60; // slower than the stream comes, so high work piles up
    const before = (await statusCounts(node.ds, node.config.namespace)).SUCCESS ?? 0;
    let n = 0;
    const submitHigh = async () => expect((await c.submitTask(call(rx, `s-high-${n++}`, HIGH))).status).toBe(202);
    expect((await c.submitTasks(Array.from({ length: 20 }, () => call(rx, `s-high-${n++}`, HIGH)))).status).toBe(202);
    expect((await c.submitTask(call(rx, 's-low', LOW))).status).toBe(202);
    const lowDue = Date.parse((await c.getTask('s-low')).body.dueAt as string);
    const bound = lowDue + (HIGH - LOW) * AGING_MS;
    // The stream goes on until the low task has started and high tasks came in well past its bound.
    for (let t = Date.now(); Date.now() - t < 60_000;) {
      await submitHigh();
      await sleep(30);
      if (starts(rx).includes('s-low') && Date.now() > bound + 1000) break;
    }
    await allDone(before + n + 1);
    answerMs = 0;

    const dueOf = new Map<string, number>();
    for (let i = 0; i < n; i++)
      dueOf.set(`s-high-${i}`, Date.parse((await c.getTask(`s-high-${i}`)).body.dueAt as string));
    const order = starts(rx);
    const lowAt = order.indexOf('s-low');
    const before_ = order.slice(0, lowAt);
    const after = order.slice(lowAt + 1);
    const cameLater = (name: string) => (dueOf.get(name) as number) > lowDue;
    const pastBound = (name: string) => (dueOf.get(name) as number) > bound;
    process.stdout.write(
      `[e2e priority, ${_name}] ${n} high tasks; the low one started after ${before_.length} of them, ` +
        `${before_.filter(cameLater).length} of which came after it\n`,
    );
    expect(after.filter(pastBound).length).toBeGreaterThan(0); // the stream went on past the bound
    expect(before_.filter(cameLater).length).toBeGreaterThan(0); // priority: later high work went first…
    expect(before_.filter(pastBound)).toEqual([]); // …but none that came after the bound
  }, 150_000);

  it('should refuse a priority out of 1-5 or not an integer with a 400 naming the field, and store nothing', async () => {
    const c = await app('prio-bad');
    const ok = [await c.submitTask(call(rx, 'ok-1', 1)), await c.submitTask(call(rx, 'ok-5', 5))];
    expect(ok.map((r) => r.status)).toEqual([202, 202]);
    const bad = await c.submitTask({ requestId: 'bad-1', handler: 'noop', priority: 6 });
    expect([bad.status, JSON.stringify(bad.body)]).toEqual([
      400,
      expect.stringContaining('priority must not be greater than 5'),
    ]);
    const batch = await c.submitTasks([
      { requestId: 'bad-2', handler: 'noop', priority: 2 },
      { requestId: 'bad-3', handler: 'noop', priority: 2.5 },
    ]);
    expect([batch.status, JSON.stringify(batch.body)]).toEqual([400, expect.stringContaining('tasks[1].priority')]);
    const job = await c.request('POST', '/api/jobs', {
      code: 'prio-job',
      handler: 'noop',
      triggerType: 'CRON',
      triggerExpr: '0 0 1 1 *',
      priority: 0,
    });
    expect([job.status, JSON.stringify(job.body)]).toEqual([400, expect.stringContaining('priority must not be less')]);
    expect((await c.getTask('bad-2')).status).toBe(404);
  });

  it("should copy a job's priority to its instances, and let a trigger-now override it", async () => {
    const c = await app('prio-job');
    const body = { code: 'prio-job', handler: 'noop', triggerType: 'CRON', triggerExpr: '0 0 1 1 *', priority: 4 };
    const created = await c.request<{ id: string; priority: number }>('POST', '/api/jobs', body);
    expect([created.status, created.body.priority]).toEqual([201, 4]);
    const id = created.body.id;
    const plain = await c.request<{ priority: number }>('POST', `/api/jobs/${id}/trigger`, {});
    const urgent = await c.request<{ priority: number }>('POST', `/api/jobs/${id}/trigger`, { priority: 5 });
    expect([plain.status, plain.body.priority, urgent.status, urgent.body.priority]).toEqual([202, 4, 202, 5]);
    const audited: Array<{ after: string }> = await node.ds.query(
      "SELECT `after` FROM audit_log WHERE action = 'JOB_TRIGGER' AND target_id = ? ORDER BY created_at",
      [id],
    );
    expect(audited.map((r) => (JSON.parse(r.after) as { priority?: number }).priority)).toEqual([undefined, 5]);
    const patched = await c.request<{ priority: number }>('PATCH', `/api/jobs/${id}`, { priority: 2 });
    expect([patched.status, patched.body.priority]).toEqual([200, 2]);
    const bad = await c.request('POST', `/api/jobs/${id}/trigger`, { priority: 9 });
    expect([bad.status, JSON.stringify(bad.body)]).toEqual([400, expect.stringContaining('priority')]);
  });
});
