import { FINAL, limitJobs, limitShapes, useLimitNode } from '../utils/limit-jobs.js';
import { waitFor } from '../utils/test-node.js';
import { sleep } from '../utils/async.js';

const shapes = limitShapes('e2e-limit-patch');

/**
 * A job edited (PATCH) while instances of it wait for a slot: the instances that wait were made under the old
 * maxConcurrency / overlap policy, the job now runs under the new ones. Raised or removed limits must let the
 * waiting instances run as soon as the job has room under the limit it has now, not only once the job is idle:
 * a busy job (fires made after the edit keep running) would otherwise keep its older instances WAITING for ever.
 * Each case holds every call until the test lets it go, so what runs at each moment is exact.
 */
describe.each(shapes)('instances waiting while their job is edited (%s)', (shape, env) => {
  const holding = new Set<string>();
  const suite = useLimitNode(shape, env, (path) => (holding.has(path) ? { hold: true } : { status: 200, delayMs: 0 }));
  afterAll(() => holding.clear());

  const { rows, count, createJob, trigger } = limitJobs(suite.node, suite.client, suite.rx, 60_000);
  /** Instance ids whose call is in flight at the receiver now (running handlers). */
  const runningIds = (path: string) =>
    suite
      .rx()
      .of(path)
      .filter((c) => c.end === null)
      .map((c) => c.instanceId)
      .sort();

  /**
   * A (running) and B, C (WAITING) under the old settings; the job is edited by `patch`; D and E fire after the
   * edit. The job must then fill the `room` its new settings allow (min(room, 5) at once), whichever of the
   * waiting (B, C: released by the leader's passes, one a second here) and new (D, E) instances get there first:
   * both orders are right. Under the old code the waiting rows kept the limit they were made with and stayed
   * WAITING while D and E ran. With room left over (room 3), ending one running instance lets a waiting one run.
   */
  async function waitingAfterEdit(
    code: string,
    created: Record<string, unknown>,
    patch: Record<string, unknown>,
    room: number,
  ): Promise<void> {
    const path = `/${code}`;
    holding.add(path);
    const jobId = await createJob(code, created);
    await trigger(code, 3);
    await waitFor(
      `${code}: A runs, B and C wait`,
      async () => suite.rx().of(path).length === 1 && (await count(jobId, ['WAITING'])) === 2,
      30_000,
      50,
    );
    const [a] = (await rows(jobId)).map((r) => r.id);
    expect(runningIds(path)).toEqual([a]);
    expect((await suite.client().request('PATCH', `/api/jobs/${code}`, patch)).status).toBe(200);
    await trigger(code, 2);
    const full = Math.min(room, 5);
    await waitFor(
      `${code}: ${full} run at once under the new settings`,
      async () => runningIds(path).length === full && (await count(jobId, ['WAITING'])) === 5 - full,
      30_000,
      50,
    );
    expect(runningIds(path)).toContain(a);

    if (full < 5) {
      suite.rx().release(path, a);
      // A's end frees a slot (and the leader's passes retry any release): a waiting instance takes it.
      await waitFor(
        `${code}: a waiting instance runs after A ended (the job allows ${room} at once)`,
        async () => runningIds(path).length === full && (await count(jobId, ['WAITING'])) === 4 - full,
        10_000,
        50,
      );
      expect(runningIds(path)).not.toContain(a);
    }

    holding.delete(path);
    suite.rx().release(path);
    await waitFor(
      `${code}: every instance final`,
      async () => (await rows(jobId)).every((r) => FINAL.includes(r.status)),
      30_000,
      50,
    );
    expect((await rows(jobId)).map((r) => r.status)).toEqual(Array(5).fill('SUCCESS'));
    expect(
      new Set(
        suite
          .rx()
          .of(path)
          .map((c) => c.instanceId),
      ).size,
    ).toBe(5);
    expect(suite.rx().of(path).length).toBe(5);
    expect(suite.rx().peak(path)).toBeLessThanOrEqual(room);
  }

  it('maxConcurrency raised 1 -> 3: the job fills its new limit, and a waiting instance takes the slot A frees', async () => {
    await waitingAfterEdit('raised', { maxConcurrency: 1 }, { maxConcurrency: 3 }, 3);
  }, 90_000);

  it('maxConcurrency removed (1 -> 0): the older waiting instances run beside the newer fires', async () => {
    await waitingAfterEdit('unlimited', { maxConcurrency: 1 }, { maxConcurrency: 0 }, 5);
  }, 90_000);

  it('overlap QUEUE -> ALLOW: the queued instances run beside the newer fires', async () => {
    await waitingAfterEdit('unqueued', { overlapPolicy: 'QUEUE' }, { overlapPolicy: 'ALLOW' }, 5);
  }, 90_000);

  it('maxConcurrency lowered 3 -> 1 while three run: the waiting ones wait until the job is under the new limit', async () => {
    const path = '/lowered';
    holding.add(path);
    const jobId = await createJob('lowered', { maxConcurrency: 3 });
    await trigger('lowered', 5);
    await waitFor(
      'three run, two wait',
      async () => suite.rx().of(path).length === 3 && (await count(jobId, ['WAITING'])) === 2,
      30_000,
      50,
    );
    const ids = (await rows(jobId)).map((r) => r.id);
    expect((await suite.client().request('PATCH', '/api/jobs/lowered', { maxConcurrency: 1 })).status).toBe(200);
    suite.rx().release(path, ids[0]);
    await sleep(2500); // two of the old ones still run: over the new limit, nobody new may start
    expect(runningIds(path)).toEqual([ids[1], ids[2]].sort());
    expect(await count(jobId, ['WAITING'])).toBe(2);
    suite.rx().release(path, ids[1]);
    suite.rx().release(path, ids[2]);
    await waitFor(
      'the fourth runs alone',
      async () => runningIds(path).length === 1 && runningIds(path)[0] === ids[3],
      10_000,
      50,
    );
    await sleep(1500); // time passes on purpose: the fifth must not start beside the fourth
    expect(runningIds(path)).toEqual([ids[3]]);
    holding.delete(path);
    suite.rx().release(path);
    await waitFor(
      'every instance final',
      async () => (await rows(jobId)).every((r) => FINAL.includes(r.status)),
      30_000,
      50,
    );
    expect((await rows(jobId)).map((r) => r.status)).toEqual(Array(5).fill('SUCCESS'));
  }, 90_000);
});
