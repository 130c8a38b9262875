import { FINAL, limitJobs, limitShapes, useLimitNode } from '../utils/limit-jobs.js';
import { waitFor } from '../utils/test-node.js';

/**
 * Cancels racing the handler's own finish on a limit-1 job (docs/execution.md): each call is answered after 0-15 ms and
 * each instance is cancelled as soon as it is seen running, so the cancel lands before, during or after the
 * executor's finishing write. A finish that lost to the cancel has stopped all the same: the slot must be freed at
 * once, not held for the cancel's stop grace (NODE_OFFLINE_AFTER_MS, 15 s here), which would stall the job.
 */
describe.each(limitShapes('e2e-crace'))("cancel racing the handler's finish (%s)", (shape, env) => {
  const suite = useLimitNode(shape, env, () => ({ status: 200, delayMs: Math.floor(Math.random() * 15) }));
  const { rows, createJob, trigger } = limitJobs(suite.node, suite.client, suite.rx, 30_000);

  it('no stall, never two at once, everything final', async () => {
    const code = `cr-${shape.slice(0, 2)}`;
    const jobId = await createJob(code, { maxConcurrency: 1 });
    await trigger(code, 30);
    const seen = new Set<string>();
    let cancels = 0;
    await waitFor(
      'every instance final',
      async () => {
        for (const c of suite.rx().of(`/${code}`)) {
          if (seen.has(c.instanceId)) continue;
          seen.add(c.instanceId);
          cancels++;
          void suite.client().request('POST', `/api/jobs/${code}/instances/${c.instanceId}/cancel`);
        }
        const rs = await rows(jobId);
        return rs.every((r) => FINAL.includes(r.status));
      },
      60_000,
      2,
    );
    const starts = suite
      .rx()
      .of(`/${code}`)
      .map((c) => c.at);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]);
    process.stdout.write(`[${shape}] ${cancels} cancels; largest gap between starts ${Math.max(0, ...gaps)} ms\n`);
    expect(Math.max(0, ...gaps)).toBeLessThan(10_000);
    expect(suite.rx().peak(`/${code}`)).toBe(1);
    const calls = suite
      .rx()
      .of(`/${code}`)
      .map((c) => c.instanceId);
    expect(new Set(calls).size).toBe(calls.length);
  }, 120_000);
});
