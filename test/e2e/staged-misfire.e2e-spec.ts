import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { sleep } from '../utils/async.js';
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

/**
 * A fire staged ahead (docs/trigger.md "Staging") that no leader released because the scheduler stopped, and
 * whose time passed by more than MISFIRE_THRESHOLD_MS when a scheduler leads again, is a missed fire like an
 * unstaged one: it goes through the job's misfire policy (it used to run late, recorded as SCHEDULE, so a SKIP
 * job ran the fires it missed). One job per policy, one stop, in both shapes.
 */
interface Row {
  id: string;
  fire_time: number;
  status: string;
  trigger_source: string;
  started_at: number | null;
  error: string | null;
}

const THRESHOLD = 1000;
/** Fires are staged 8 s ahead, so some are still unreleased however slowly the first scheduler closes. */
const SETTINGS = {
  TRIGGER_STAGE_LEAD_MS: '8000',
  MISFIRE_THRESHOLD_MS: String(THRESHOLD),
  NODE_OFFLINE_AFTER_MS: '15000',
  DUE_ALERT_AFTER_MS: '600000',
};
const POLICIES = ['SKIP', 'FIRE_ONCE_NOW', 'FIRE_ALL'] as const;

async function rowsOf(node: TestNode, jobId: string): Promise<Row[]> {
  const rows = (await node.ds.query(
    'SELECT id, fire_time, status, trigger_source, started_at, error FROM job_instance WHERE job_id = ? ORDER BY fire_time',
    [jobId],
  )) as Row[];
  return rows.map((r) => ({
    ...r,
    fire_time: Number(r.fire_time),
    started_at: r.started_at === null ? null : Number(r.started_at),
  }));
}

async function createPolicyJob(client: TickwheelClient, receiver: HttpReceiver, policy: string): Promise<string> {
  const job = await createJob(client, {
    code: `staged-${policy.toLowerCase().replace(/_/g, '-')}`,
    handler: 'http',
    triggerType: 'CRON',
    triggerExpr: '* * * * * *',
    misfirePolicy: policy,
    params: { method: 'GET', url: `${receiver.url}/${policy}` },
  });
  return job.id;
}

describe('staged fires across a scheduler stop (cluster shape)', () => {
  let receiver: HttpReceiver;
  const nodes: TestNode[] = [];
  beforeEach(async () => {
    receiver = await startReceiver();
  });
  afterEach(async () => {
    for (const n of nodes.splice(0).reverse()) await n.close();
    await receiver.close();
  });

  /** Starts the first scheduler (returns the node to create jobs on) and, after `stop`, the next one. */
  interface Shape {
    first(): Promise<TestNode>;
    stop(first: TestNode): Promise<void>;
    restart(): Promise<TestNode>;
  }

  const cluster = (): Shape => {
    const ns = uniqueNamespace('e2e-stmis');
    return {
      first: async () => {
        nodes.push(await startNode(clusterEnv(ns, { ROLES: 'executor', NODE_NAME: 'stmis-exec', ...SETTINGS })));
        return startNode(clusterEnv(ns, { ROLES: 'api,scheduler', ...SETTINGS }));
      },
      stop: (first) => first.close(), // its wheel, and the staged ids on it, are gone; the executor stays
      restart: () => startNode(clusterEnv(ns, { ROLES: 'api,scheduler', ...SETTINGS })),
    };
  };

  const standalone = (): Shape => {
    const env = standaloneEnv(SETTINGS);
    return {
      first: () => startNode(env),
      stop: (first) => first.app.close(), // the whole node stops; its data dir stays for the restart
      restart: () => startNode(env),
    };
  };

  it.each([
    ['cluster', cluster],
    ['standalone', standalone],
  ])(
    'should hand unreleased staged fires missed by more than the threshold to each misfire policy (%s)',
    async (_n, shape) => {
      const { first: startFirst, stop, restart } = shape();
      const first = await startFirst();
      const client = await signedClient(first);
      const jobs = new Map<string, string>();
      for (const p of POLICIES) jobs.set(p, await createPolicyJob(client, receiver, p));
      let ahead = new Map<string, Row[]>();
      await waitFor(
        'fires staged 6 s ahead for every job',
        async () => {
          ahead = new Map();
          for (const [p, id] of jobs) ahead.set(p, await rowsOf(first, id));
          return [...ahead.values()].every((rows) =>
            rows.some((r) => r.fire_time > Date.now() + 6000 && r.status === 'DISPATCHED'),
          );
        },
        30_000,
        50,
      );
      await stop(first);
      const closedAt = Date.now();
      const staged = new Map([...ahead].map(([p, rows]) => [p, rows.filter((r) => r.fire_time > closedAt)]));
      const lastStaged = Math.max(...[...staged.values()].flat().map((r) => r.fire_time));
      await sleep(Math.max(0, lastStaged + THRESHOLD + 1500 - Date.now())); // every staged fire is now missed
      const restartAt = Date.now();
      const second = await restart();
      nodes.push(second);
      await waitFor(
        'every job firing again after the restart',
        async () => {
          const all = await Promise.all([...jobs.values()].map((id) => rowsOf(second, id)));
          return all.every((rows) => rows.some((r) => r.fire_time > restartAt + 1000 && r.status === 'SUCCESS'));
        },
        60_000,
        100,
      );
      const client2 = await signedClient(second);
      for (const id of jobs.values()) await client2.request('POST', `/api/jobs/${id}/pause`);

      for (const [policy, jobId] of jobs) {
        const missed = (staged.get(policy) as Row[]).filter((r) => r.fire_time < restartAt - THRESHOLD);
        expect(missed.length).toBeGreaterThan(0);
        const rows = await rowsOf(second, jobId);
        const byTime = new Map(rows.map((r) => [r.fire_time, r]));
        // No staged row ran late as SCHEDULE: each was taken back (deleted), its fire time planned again.
        for (const s of missed) expect(rows.find((r) => r.id === s.id)).toBeUndefined();
        const misfires = rows.filter((r) => r.trigger_source === 'MISFIRE');
        if (policy === 'SKIP') {
          for (const s of missed)
            expect(byTime.get(s.fire_time)).toMatchObject({ status: 'CANCELLED', trigger_source: 'MISFIRE' });
          expect(misfires.every((r) => r.status === 'CANCELLED' && r.started_at === null)).toBe(true);
          expect(misfires.every((r) => (r.error ?? '').startsWith('MISFIRE_SKIP'))).toBe(true);
        }
        if (policy === 'FIRE_ALL')
          for (const s of missed)
            expect(byTime.get(s.fire_time)).toMatchObject({ status: 'SUCCESS', trigger_source: 'MISFIRE' });
        if (policy === 'FIRE_ONCE_NOW') {
          expect(misfires).toHaveLength(1); // the latest missed time, run once
          expect(misfires[0]).toMatchObject({ status: 'SUCCESS' });
          expect(misfires[0].fire_time).toBeGreaterThanOrEqual(Math.max(...missed.map((r) => r.fire_time)));
          for (const s of missed.filter((r) => r.fire_time !== misfires[0].fire_time))
            expect(byTime.get(s.fire_time)).toBeUndefined();
        }
      }
    },
    180_000,
  );
});
