import { FINAL, limitJobs, useLimitNode } from '../utils/limit-jobs.js';
import { clusterEnv, standaloneEnv, uniqueNamespace, waitFor } from '../utils/test-node.js';

/** A heartbeat a minute apart: the executor's heartbeat check cannot be what stops a cancelled handler here. */
const SLOW_BEAT = { HEARTBEAT_INTERVAL_MS: '60000', NODE_OFFLINE_AFTER_MS: '180000', LOG_LEVEL: 'error' };
const shapes: Array<[string, () => Record<string, string>]> = [
  ['standalone', () => standaloneEnv(SLOW_BEAT)],
  ['cluster', () => clusterEnv(uniqueNamespace('e2e-cancel-run'), SLOW_BEAT)],
];

/**
 * Cancelling a RUNNING instance (docs/execution.md): the canceller's stop signal makes its executor abort the handler
 * at once, not at its next heartbeat; and a limited job's slot is given up by that executor once the handler
 * stopped, so the next WAITING instance starts after the cancelled call ended, never beside it. (Before: the
 * handler ran on until the next heartbeat while the canceller had already freed the slot and released the next.)
 */
describe.each(shapes)('cancel of a running limited instance (%s)', (shape, env) => {
  const holding = new Set<string>();
  const suite = useLimitNode(shape, env, (path) => (holding.has(path) ? { hold: true } : { status: 200, delayMs: 0 }));
  afterAll(() => holding.clear());

  const { rows, count, createJob, trigger } = limitJobs(suite.node, suite.client, suite.rx, 60_000);

  it('limit 1: the cancelled handler is aborted at once, and the next instance starts only after it stopped', async () => {
    const path = '/stop';
    holding.add(path);
    const jobId = await createJob('stop', { maxConcurrency: 1 });
    await trigger('stop', 3);
    await waitFor(
      'A runs, B and C wait',
      async () => suite.rx().of(path).length === 1 && (await count(jobId, ['WAITING'])) === 2,
      30_000,
      50,
    );
    const [a, b, c] = (await rows(jobId)).map((r) => r.id);
    const callA = suite.rx().of(path)[0];
    expect(callA.instanceId).toBe(a);

    const cancelledAt = Date.now();
    const res = await suite.client().request<{ status: string }>('POST', `/api/jobs/stop/instances/${a}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('CANCELLED');
    await waitFor(
      'the cancelled call aborted (not at the next heartbeat, a minute away)',
      async () => callA.end !== null,
      10_000,
      20,
    );
    await waitFor('B runs', async () => suite.rx().of(path).length === 2, 20_000, 20);
    const callB = suite.rx().of(path)[1];
    expect(callB.instanceId).toBe(b);
    expect(callB.at).toBeGreaterThanOrEqual(callA.end as number);
    process.stdout.write(
      `[${shape}] cancelled call stopped ${(callA.end as number) - cancelledAt} ms after the cancel; the next started ${callB.at - (callA.end as number)} ms after that\n`,
    );

    holding.delete(path);
    suite.rx().release(path);
    await waitFor(
      'every instance final',
      async () => (await rows(jobId)).every((r) => FINAL.includes(r.status)),
      30_000,
      50,
    );
    expect((await rows(jobId)).map((r) => [r.id, r.status])).toEqual([
      [a, 'CANCELLED'],
      [b, 'SUCCESS'],
      [c, 'SUCCESS'],
    ]);
    expect(suite.rx().of(path)).toHaveLength(3);
    expect(suite.rx().peak(path)).toBe(1);
  }, 90_000);

  it("no limit: a cancelled task's handler is aborted at once too", async () => {
    const path = '/task';
    holding.add(path);
    const requestId = `cancel-run-${shape}-${Date.now()}`;
    const submitted = await suite.client().request('POST', '/api/tasks', {
      requestId,
      handler: 'http',
      params: { url: `${suite.rx().url}${path}`, timeoutMs: 60_000 },
      timeoutMs: 60_000,
    });
    expect(submitted.status).toBe(202);
    await waitFor('the task runs', async () => suite.rx().of(path).length === 1, 30_000, 20);
    const cancelled = await suite.client().request<{ status: string }>('POST', `/api/tasks/${requestId}/cancel`);
    expect(cancelled.body.status).toBe('CANCELLED');
    await waitFor('the cancelled call aborted', async () => suite.rx().of(path)[0].end !== null, 10_000, 20);
    holding.delete(path);
  }, 60_000);
});
