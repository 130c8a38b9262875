import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { HttpReceiver, startReceiver } from '../utils/http-receiver.js';
import {
  clusterEnv,
  signedClient,
  standaloneEnv,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { createJob } from '../utils/jobs.js';

interface FireRow {
  fire_time: string | number;
  started_at: string | number | null;
  status: string;
  trigger_source: string;
}

/** Creates a `*\/2 * * * * *` http job and checks at least three fires on even seconds, 2 s apart, each run once. */
async function expectCronFires(node: TestNode, client: TickwheelClient, receiver: HttpReceiver): Promise<void> {
  const jobId = (
    await createJob(client, {
      code: 'every-2s',
      handler: 'http',
      triggerType: 'CRON',
      triggerExpr: '*/2 * * * * *',
      params: { method: 'GET', url: `${receiver.url}/tick` },
    })
  ).id;
  const rows = async () =>
    (await node.ds.query(
      'SELECT fire_time, started_at, status, trigger_source FROM job_instance WHERE job_id = ? ORDER BY fire_time',
      [jobId],
    )) as FireRow[];
  await waitFor(
    'three successful fires',
    async () => (await rows()).filter((r) => r.status === 'SUCCESS').length >= 3,
    60_000,
    100,
  );
  await client.request('POST', `/api/jobs/${jobId}/pause`);
  // A fire released just before the pause still runs: compare with the receiver once every fire has ended
  // (a run whose call had arrived but whose SUCCESS was not written yet made the counts differ under load).
  await waitFor(
    'every fire ended',
    async () => (await rows()).every((r) => ['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'].includes(r.status)),
    30_000,
    100,
  );
  const done = (await rows()).filter((r) => r.status === 'SUCCESS');
  const fires = done.map((r) => Number(r.fire_time));
  for (const t of fires) expect(t % 2000).toBe(0);
  for (let i = 1; i < fires.length; i++) expect(fires[i] - fires[i - 1]).toBe(2000);
  for (const r of done) {
    expect(r.trigger_source).toBe('SCHEDULE');
    const lateness = Number(r.started_at) - Number(r.fire_time);
    expect(lateness).toBeGreaterThanOrEqual(0); // never early
    // Started before the next fire of the schedule was due (the bound was 1.5 s: a loaded CI machine's
    // scheduling delays came close; the leader's alert threshold is p99 over 1 s, docs/observability.md).
    expect(lateness).toBeLessThan(2000);
  }
  expect(receiver.seen.size).toBe(done.length);
  expect([...receiver.seen.values()].every((c) => c === 1)).toBe(true);
}

describe('cron job with a seconds field', () => {
  let receiver: HttpReceiver;
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    await receiver.close();
  });

  it('should fire at least three times on the right seconds in the cluster shape', async () => {
    // The product's 15-s offline threshold (as test/utils/task-shapes.ts explains): a CI worker starved for 3 s
    // must not get its own executor declared offline and a fire run twice.
    const node = await startNode(clusterEnv(uniqueNamespace('e2e-cron'), { NODE_OFFLINE_AFTER_MS: '15000' }));
    try {
      await expectCronFires(node, await signedClient(node), receiver);
    } finally {
      await node.close();
    }
  }, 120_000);

  it('should fire at least three times on the right seconds in the standalone shape', async () => {
    const node = await startNode(standaloneEnv());
    try {
      await expectCronFires(node, await signedClient(node), receiver);
    } finally {
      await node.close();
    }
  }, 120_000);
});
