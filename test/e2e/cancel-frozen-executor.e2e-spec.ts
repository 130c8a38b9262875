import { readFileSync } from 'node:fs';
import type { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { type LimitReceiver, startLimitReceiver } from '../utils/limit-receiver.js';
import { type ProductProcess, startProcess } from '../utils/process-node.js';
import {
  clusterEnv,
  executorsBeat,
  signedClient,
  startNode,
  type TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { createJob, triggerNow } from '../utils/jobs.js';
import { sleep } from '../utils/async.js';

const isStopped = (pid: number): boolean => /^\S+ \(.*\) T /s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

/**
 * A cancelled instance of a limited job whose executor is frozen (SIGSTOP: a long GC pause, CPU starvation) —
 * still beating as far as the cluster knows, its handler still holding its call open — must keep its slot as long
 * as a RUNNING instance would: until its executor stops it, or is declared offline (NODE_OFFLINE_AFTER_MS). With
 * the slot given up after two heartbeats, the next instance started on the other executor beside the frozen
 * one's call. Real processes: two executors, the api and scheduler in the test. Heartbeat 0.5 s, offline 8 s.
 */
describe('cancel of a running limited instance on a frozen executor (real processes)', () => {
  const ns = uniqueNamespace('e2e-cfrozen');
  const OFFLINE_MS = '8000';
  let api: TestNode;
  let client: TickwheelClient;
  let rx: LimitReceiver;
  let holding = true;
  const procs = new Map<string, ProductProcess>();

  beforeAll(async () => {
    rx = await startLimitReceiver(() => (holding ? { hold: true } : { status: 200, delayMs: 0 }));
    api = await startNode(
      clusterEnv(ns, {
        ROLES: 'api,scheduler',
        NODE_OFFLINE_AFTER_MS: OFFLINE_MS,
        RECONCILE_INTERVAL_MS: '1000',
        LOG_LEVEL: 'error',
      }),
    );
    client = await signedClient(api);
    for (const name of ['fza', 'fzb']) {
      procs.set(
        name,
        startProcess(
          clusterEnv(ns, {
            ROLES: 'executor',
            PORT: '0',
            NODE_NAME: name,
            NODE_OFFLINE_AFTER_MS: OFFLINE_MS,
            LOG_LEVEL: 'error',
          }),
        ),
      );
    }
    await executorsBeat(api, 2);
  }, 60_000);
  afterAll(async () => {
    holding = false;
    for (const p of procs.values()) await p.stop(3000);
    await api?.close();
    await rx?.close();
  });

  const rows = async (jobId: string) =>
    (await api.ds.query('SELECT id, status, node_id FROM job_instance WHERE job_id = ? ORDER BY fire_time, id', [
      jobId,
    ])) as Array<{ id: string; status: string; node_id: string | null }>;

  it('the next instance waits until the frozen executor wakes and stops the cancelled handler', async () => {
    const jobId = (
      await createJob(client, {
        code: 'fz',
        handler: 'http',
        maxConcurrency: 1,
        timeoutMs: 60_000,
        params: { url: `${rx.url}/fz`, timeoutMs: 60_000 },
      })
    ).id;
    await triggerNow(client, 'fz', 2, 5);
    await waitFor(
      'A runs, B waits',
      async () => rx.of('/fz').length === 1 && (await rows(jobId))[1]?.status === 'WAITING',
      30_000,
      20,
    );
    const [a] = await rows(jobId);
    const victim = procs.get(String(a.node_id).split('-')[0]) as ProductProcess;
    victim.signal('SIGSTOP');
    await waitFor('the executor frozen', async () => isStopped(victim.pid), 10_000, 10);
    expect((await client.request('POST', `/api/jobs/fz/instances/${a.id}/cancel`)).status).toBe(200);
    // Frozen for 4 s (half the offline threshold): the cancelled call stays open all that time, so nothing may start.
    const frozenUntil = Date.now() + 4000;
    while (Date.now() < frozenUntil) {
      expect(rx.of('/fz')).toHaveLength(1);
      await sleep(50); // sampling: nothing may start during the whole freeze
    }
    victim.signal('SIGCONT');
    holding = false;
    await waitFor('B ran', async () => rx.of('/fz').length === 2, 30_000, 20);
    await waitFor(
      'all final',
      async () => (await rows(jobId)).every((r) => ['SUCCESS', 'CANCELLED'].includes(r.status)),
      30_000,
      50,
    );
    expect((await rows(jobId)).map((r) => r.status)).toEqual(['CANCELLED', 'SUCCESS']);
    expect(rx.peak('/fz')).toBe(1);
  }, 120_000);

  it('QUEUE: an executor killed after the cancel never ends the stop grace; the next fire runs once the grace is over', async () => {
    holding = true;
    const jobId = (
      await createJob(client, {
        code: 'fq',
        handler: 'http',
        overlapPolicy: 'QUEUE',
        timeoutMs: 60_000,
        params: { url: `${rx.url}/fq`, timeoutMs: 60_000 },
      })
    ).id;
    await triggerNow(client, 'fq', 2, 5);
    await waitFor(
      'A runs, B waits',
      async () => rx.of('/fq').length === 1 && (await rows(jobId))[1]?.status === 'WAITING',
      30_000,
      20,
    );
    const [a] = await rows(jobId);
    const victim = procs.get(String(a.node_id).split('-')[0]) as ProductProcess;
    victim.signal('SIGSTOP');
    await waitFor('the executor frozen', async () => isStopped(victim.pid), 10_000, 10);
    const cancelledAt = Date.now();
    expect((await client.request('POST', `/api/jobs/fq/instances/${a.id}/cancel`)).status).toBe(200);
    victim.signal('SIGKILL');
    holding = false;
    await waitFor('B ran', async () => rx.of('/fq').length === 2, 60_000, 20);
    expect(rx.of('/fq')[1].at).toBeGreaterThanOrEqual(cancelledAt + Number(OFFLINE_MS));
    await waitFor(
      'all final',
      async () => (await rows(jobId)).every((r) => ['SUCCESS', 'CANCELLED'].includes(r.status)),
      30_000,
      50,
    );
    expect((await rows(jobId)).map((r) => r.status)).toEqual(['CANCELLED', 'SUCCESS']);
    expect(rx.peak('/fq')).toBe(1);
  }, 120_000);
});
