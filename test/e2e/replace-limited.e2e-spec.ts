import { FINAL, limitJobs, limitShapes, useLimitNode } from '../utils/limit-jobs.js';
import { waitFor } from '../utils/test-node.js';
import { sleep } from '../utils/async.js';

/**
 * REPLACE overlap under maxConcurrency 1 (docs/trigger.md, docs/execution.md), fired in quick succession: each fire cancels the
 * unfinished ones (running, or waiting for the slot the cancelled one still holds while it stops). Never two calls
 * at once, every fire ends, the last one runs to SUCCESS, nothing left WAITING.
 */
describe.each(limitShapes('e2e-replim'))('REPLACE under maxConcurrency (%s)', (shape, env) => {
  let holding = true;
  const suite = useLimitNode(shape, env, () => (holding ? { hold: true } : { status: 200, delayMs: 0 }));
  const { rows, createJob } = limitJobs(suite.node, suite.client, suite.rx, 60_000);

  it('12 quick fires: one call at a time, the last one succeeds', async () => {
    const code = `rl-${shape.slice(0, 2)}`;
    const jobId = await createJob(code, { maxConcurrency: 1, overlapPolicy: 'REPLACE' });
    for (let i = 0; i < 12; i++) {
      expect((await suite.client().request('POST', `/api/jobs/${code}/trigger`, {})).status).toBe(202);
      await sleep(i % 3 === 0 ? 150 : 3); // quick fires (apart by the ms key), some a little slower
    }
    holding = false;
    suite.rx().release(`/${code}`);
    await waitFor(
      'every fire final',
      async () => (await rows(jobId)).every((r) => FINAL.includes(r.status)),
      60_000,
      50,
    );
    const rs = await rows(jobId);
    expect(rs.at(-1)?.status).toBe('SUCCESS');
    expect(rs.slice(0, -1).every((r) => r.status === 'CANCELLED')).toBe(true);
    expect(suite.rx().peak(`/${code}`)).toBe(1);
    const calls = suite
      .rx()
      .of(`/${code}`)
      .map((c) => c.instanceId);
    expect(new Set(calls).size).toBe(calls.length);
    holding = true;
  }, 120_000);
});
