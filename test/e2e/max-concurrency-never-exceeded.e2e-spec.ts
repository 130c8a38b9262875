import { FINAL, limitJobs, type LimitRow, limitShapes, useLimitNode } from '../utils/limit-jobs.js';
import { waitFor } from '../utils/test-node.js';
import { sleep } from '../utils/async.js';

const shapes = limitShapes('e2e-limit-held');

/**
 * Per-job maxConcurrency (docs/execution.md "Limits") end to end through the signed API, in both shapes: retries with
 * backoff, QUEUE overlap with retries, cancels and hundreds of waiting instances. The receiver counts the
 * handler's calls in flight per job, and the rows are read while it runs: neither may exceed the limit, and
 * every instance must end (none left WAITING).
 */
describe.each(shapes)('maxConcurrency end to end (%s)', (shape, env) => {
  /** Paths whose calls are held until released. */
  const holding = new Set<string>();
  /** Per path: attempts below this fail with 500. */
  const failBelow = new Map<string, number>();
  const delay = new Map<string, number>();
  const suite = useLimitNode(shape, env, (path, attempt) => {
    if (holding.has(path)) return { hold: true };
    return { status: attempt < (failBelow.get(path) ?? 0) ? 500 : 200, delayMs: delay.get(path) ?? 50 };
  });

  const { rows, count, createJob, trigger } = limitJobs(suite.node, suite.client, suite.rx, 30_000);
  /** Waits until every instance of the job is final, checking on the way that no more than `limit` run at once. */
  async function settle(jobId: string, path: string, limit: number, timeoutMs = 60_000): Promise<LimitRow[]> {
    await waitFor(
      `every instance of ${path} final`,
      async () => {
        expect(await count(jobId, ['DISPATCHED', 'RUNNING'])).toBeLessThanOrEqual(limit);
        expect(suite.rx().inFlight(path)).toBeLessThanOrEqual(limit);
        return (await rows(jobId)).every((r) => FINAL.includes(r.status));
      },
      timeoutMs,
      50,
    );
    expect(suite.rx().peak(path)).toBeLessThanOrEqual(limit);
    return rows(jobId);
  }

  it('limit 2, a failing handler retried with backoff: never more than 2 at once, every attempt made, none left WAITING', async () => {
    const path = '/fail-retry';
    failBelow.set(path, 99); // always 500
    const jobId = await createJob('fail-retry', {
      maxConcurrency: 2,
      retryMax: 2,
      retryBackoffMs: 300,
      retryBackoffKind: 'FIXED',
    });
    await trigger('fail-retry', 8);
    const end = await settle(jobId, path, 2);
    expect(end.map((r) => r.status)).toEqual(Array(8).fill('FAILED'));
    expect(end.map((r) => r.attempt)).toEqual(Array(8).fill(3));
    for (const r of end)
      expect(
        suite
          .rx()
          .of(path)
          .filter((c) => c.instanceId === r.id)
          .map((c) => c.attempt),
      ).toEqual([1, 2, 3]);
    expect(suite.rx().peak(path)).toBe(2);
  }, 90_000);

  it('limit 2, a handler that succeeds at its 2nd attempt, exponential backoff: all SUCCESS, never more than 2', async () => {
    const path = '/second-time';
    failBelow.set(path, 2);
    delay.set(path, 100);
    const jobId = await createJob('second-time', {
      maxConcurrency: 2,
      retryMax: 3,
      retryBackoffMs: 200,
      retryBackoffKind: 'EXPONENTIAL',
    });
    await trigger('second-time', 10);
    const end = await settle(jobId, path, 2);
    expect(end.map((r) => r.status)).toEqual(Array(10).fill('SUCCESS'));
    expect(end.map((r) => r.attempt)).toEqual(Array(10).fill(2));
  }, 90_000);

  it('QUEUE with limit 1 and a retrying handler: one at a time, in fire order, each retry before the next fire', async () => {
    const path = '/queue-retry';
    failBelow.set(path, 2);
    const jobId = await createJob('queue-retry', {
      overlapPolicy: 'QUEUE',
      maxConcurrency: 1,
      retryMax: 1,
      retryBackoffMs: 300,
    });
    await trigger('queue-retry', 6);
    const end = await settle(jobId, path, 1);
    expect(end.map((r) => r.status)).toEqual(Array(6).fill('SUCCESS'));
    const seq = suite
      .rx()
      .of(path)
      .map((c) => `${end.findIndex((r) => r.id === c.instanceId)}.${c.attempt}`);
    expect(seq).toEqual(end.flatMap((_, i) => [`${i}.1`, `${i}.2`]));
    const calls = suite.rx().of(path);
    for (let i = 1; i < calls.length; i++) expect(calls[i].at).toBeGreaterThanOrEqual(calls[i - 1].end as number);
  }, 90_000);

  it('cancel of a WAITING and of the RUNNING instance of a limit-1 job: the next one runs, nothing stuck', async () => {
    const path = '/cancel';
    holding.add(path);
    const jobId = await createJob('cancel', { maxConcurrency: 1 });
    await trigger('cancel', 4);
    await waitFor(
      '1 running, 3 waiting',
      async () => suite.rx().of(path).length === 1 && (await count(jobId, ['WAITING'])) === 3,
      30_000,
      50,
    );
    let rs = await rows(jobId);
    const running = suite.rx().of(path)[0].instanceId;
    expect(running).toBe(rs[0].id);
    // cancel the second (WAITING)
    expect((await suite.client().request('POST', `/api/jobs/cancel/instances/${rs[1].id}/cancel`)).status).toBeLessThan(
      300,
    );
    await sleep(1500); // time passes on purpose: cancelling a waiting one must not start another
    expect(suite.rx().of(path)).toHaveLength(1);
    expect(await count(jobId, ['WAITING'])).toBe(2);
    // cancel the running one: the third runs
    expect((await suite.client().request('POST', `/api/jobs/cancel/instances/${running}/cancel`)).status).toBeLessThan(
      300,
    );
    await waitFor('the third runs', async () => suite.rx().of(path).length === 2, 30_000, 50);
    rs = await rows(jobId);
    expect(suite.rx().of(path)[1].instanceId).toBe(rs[2].id);
    // cancel the last (WAITING), let the running one end
    expect((await suite.client().request('POST', `/api/jobs/cancel/instances/${rs[3].id}/cancel`)).status).toBeLessThan(
      300,
    );
    // The cancelled handler's executor frees the slot once the handler stopped: the next one started after it.
    const cancelled = suite.rx().of(path)[0];
    expect(cancelled.end).not.toBeNull();
    expect(suite.rx().of(path)[1].at).toBeGreaterThanOrEqual(cancelled.end as number);
    holding.delete(path);
    suite.rx().release(path);
    const end = await settle(jobId, path, 1);
    expect(end.map((r) => r.status)).toEqual(['CANCELLED', 'CANCELLED', 'SUCCESS', 'CANCELLED']);
    expect(suite.rx().of(path)).toHaveLength(2);
    // the job is free again: a new fire runs at once
    await trigger('cancel', 1);
    await waitFor('a new fire runs', async () => (await count(jobId, ['SUCCESS'])) === 2, 30_000, 50);
  }, 90_000);

  it('200 waiting instances of a limit-1 job with a fast handler: all run, never 2 at once, in reasonable time', async () => {
    const path = '/many';
    delay.set(path, 0);
    const jobId = await createJob('many', { maxConcurrency: 1, triggerExpr: '* * * * * *', enabled: false });
    const to = Math.floor(Date.now() / 1000) * 1000 - 1000;
    const t0 = Date.now();
    const res = await suite.client().request<{ created: number }>('POST', '/api/jobs/many/backfill', {
      from: new Date(to - 199_000).toISOString(),
      to: new Date(to).toISOString(),
    });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(200);
    const end = await settle(jobId, path, 1, 150_000);
    const ms = Date.now() - t0;
    process.stdout.write(`[${shape}] 200 limit-1 instances in ${ms} ms\n`);
    expect(end.map((r) => r.status)).toEqual(Array(200).fill('SUCCESS'));
    expect(suite.rx().of(path)).toHaveLength(200);
    // Each release goes through the leader's delay queue, pumped at once on the executor's signal: 2-10 s here (35 s
    // when it waited for the 200-ms pump); far more means releases were lost and only the reconciler's pass (one
    // release per job per pass) moved the chain on.
    expect(ms).toBeLessThan(90_000);
  }, 180_000);
});
