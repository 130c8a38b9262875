import { FINAL, limitJobs, limitShapes, useLimitNode } from '../utils/limit-jobs.js';
import { waitFor } from '../utils/test-node.js';

/**
 * Cancel storms on a limited job (docs/state-machine.md, docs/execution.md): many instances of a limit-2 job, running, waiting and being
 * released, cancelled all at once while the executor keeps finishing and releasing them. Every cancel must
 * answer a final status (a cancel that lost to the row moving on — WAITING→PENDING, DISPATCHED→RUNNING — must
 * not quietly leave it to run), the handler never runs more than the limit at once, and nothing is left behind.
 */
describe.each(limitShapes('e2e-cstorm'))('cancel storm on a limited job (%s)', (shape, env) => {
  const suite = useLimitNode(shape, env, () => ({ status: 200, delayMs: 30 }));
  const { rows, createJob, trigger } = limitJobs(suite.node, suite.client, suite.rx, 60_000);

  it.each([1, 2, 3])(
    'round %i: every cancel ends its instance, at most the limit run at once, none left unfinished',
    async (round) => {
      const code = `cs-${shape.slice(0, 2)}-${round}`;
      const jobId = await createJob(code, { maxConcurrency: 2 });
      await trigger(code, 40);
      await waitFor('some ran', async () => suite.rx().of(`/${code}`).length >= 3, 30_000, 10);
      const ids = (await rows(jobId)).map((r) => r.id);
      const answers = await Promise.all(
        ids.map((id) =>
          suite
            .client()
            .request<{ status: string }>('POST', `/api/jobs/${code}/instances/${id}/cancel`)
            .then((r) => ({ id, status: r.body.status })),
        ),
      );
      const unfinished = answers.filter((a) => !FINAL.includes(a.status));
      await waitFor(
        'every instance final',
        async () => (await rows(jobId)).every((r) => FINAL.includes(r.status)),
        60_000,
        50,
      );
      expect(unfinished).toEqual([]);
      expect(suite.rx().peak(`/${code}`)).toBeLessThanOrEqual(2);
      // An instance is called at most once (one attempt each, none run twice).
      const calls = suite
        .rx()
        .of(`/${code}`)
        .map((c) => c.instanceId);
      expect(new Set(calls).size).toBe(calls.length);
      expect((await rows(jobId)).filter((r) => r.status === 'SUCCESS').length).toBe(
        calls.filter((id) => !answers.some((a) => a.id === id && a.status === 'CANCELLED')).length,
      );
    },
    120_000,
  );
});
