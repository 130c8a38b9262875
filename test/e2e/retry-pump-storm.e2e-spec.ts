import { FINAL, limitJobs, limitShapes, useLimitNode } from '../utils/limit-jobs.js';
import { waitFor } from '../utils/test-node.js';

/**
 * Many retries without backoff on a limited job (docs/execution.md): every failed attempt goes back through the delay queue
 * due now and signals the leader to pump at once (delay-due), and every freed slot releases a WAITING instance the
 * same way. The leader must neither fall behind nor run anything twice: every instance ends FAILED after exactly
 * its attempts, one call per attempt, never more than the limit at once, nothing left WAITING or PENDING.
 */
describe.each(limitShapes('e2e-pstorm'))('retry and release storm on a limited job (%s)', (shape, env) => {
  const suite = useLimitNode(shape, env, () => ({ status: 500, delayMs: 0 }));
  const { rows, createJob, trigger } = limitJobs(suite.node, suite.client, suite.rx, 30_000);

  it('40 instances x 4 attempts at limit 3, retried with no backoff', async () => {
    const code = `ps-${shape.slice(0, 2)}`;
    const jobId = await createJob(code, { maxConcurrency: 3, retryMax: 3, retryBackoffMs: 0 });
    await trigger(code, 40);
    const started = Date.now();
    await waitFor(
      'every instance final',
      async () => {
        const rs = await rows(jobId);
        return rs.length === 40 && rs.every((r) => FINAL.includes(r.status));
      },
      90_000,
      100,
    );
    process.stdout.write(`[${shape}] 160 attempts in ${Date.now() - started} ms\n`);
    const rs = await rows(jobId);
    expect(rs.map((r) => `${r.status} ${r.attempt}`)).toEqual(rs.map(() => 'FAILED 4'));
    const calls = suite.rx().of(`/${code}`);
    const byInstance = new Map<string, number[]>();
    for (const c of calls) byInstance.set(c.instanceId, [...(byInstance.get(c.instanceId) ?? []), c.attempt]);
    expect(byInstance.size).toBe(40);
    for (const attempts of byInstance.values()) expect(attempts).toEqual([1, 2, 3, 4]);
    expect(suite.rx().peak(`/${code}`)).toBeLessThanOrEqual(3);
  }, 120_000);
});
