import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { clusterEnv, startNode, TestNode, uniqueNamespace, waitFor } from '../utils/test-node.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { sleep } from '../utils/async.js';

const N = 10_000;

/** Inserts `n` enabled FIXED_RATE (1 h) jobs due at `due`, in multi-row INSERTs. Returns their ids. */
async function insertJobs(ds: DataSource, ns: string, n: number, due: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  const cols =
    'id, namespace, code, handler, trigger_type, trigger_expr, time_zone, routing_strategy, shard_total, misfire_policy, overlap_policy, max_concurrency, timeout_ms, retry_max, retry_backoff_ms, retry_backoff_kind, enabled, schedule_state, next_fire_time, version, created_at, updated_at';
  for (let i0 = 0; i0 < n; i0 += 1000) {
    const rows: unknown[] = [];
    const marks: string[] = [];
    for (let i = i0; i < Math.min(n, i0 + 1000); i++) {
      const id = randomUUID();
      ids.push(id);
      marks.push('(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)');
      rows.push(
        id,
        ns,
        `${prefix}-${i}`,
        'nobody.serves.this',
        'FIXED_RATE',
        '3600000',
        'UTC',
        'ROUND_ROBIN',
        1,
        'FIRE_ONCE_NOW',
        'ALLOW',
        0,
        60000,
        0,
        1000,
        'FIXED',
        1,
        'OK',
        due,
        1,
        due,
        due,
      );
    }
    await ds.query(`INSERT INTO job_definition (${cols}) VALUES ${marks.join(',')}`, rows);
  }
  return ids;
}

describe('a burst of 10,000 jobs due on the same second (timing wheel, cluster shape)', () => {
  const ns = uniqueNamespace('e2e-burst');
  let node: TestNode;

  beforeAll(async () => {
    node = await startNode(
      clusterEnv(ns, {
        ROLES: 'scheduler',
        RECONCILE_INTERVAL_MS: '600000',
        LOG_LEVEL: 'error',
        TRIGGER_HORIZON_MS: '10000',
      }),
    );
  });
  afterAll(async () => {
    await deleteNamespaceRows(node?.ds, ns, { definitions: true });
    await node?.close();
  });

  it('should fire every job exactly once and still fire a later bucket', async () => {
    const due = Date.now() + 4000;
    await insertJobs(node.ds, ns, N, due, 'burst');
    const [later] = await insertJobs(node.ds, ns, 1, due + 1000, 'later');
    await waitFor(
      'all fires',
      async () => {
        const rows: Array<{ c: string }> = await node.ds.query(
          'SELECT COUNT(*) AS c FROM job_instance WHERE namespace = ?',
          [ns],
        );
        return Number(rows[0].c) >= N + 1;
      },
      90_000,
      250,
    );
    await sleep(1000); // time passes on purpose: no fire beyond N + 1 may appear
    const stats: Array<{ c: string; d: string; lmax: string; lavg: string }> = await node.ds.query(
      'SELECT COUNT(*) AS c, COUNT(DISTINCT job_id) AS d, MAX(created_at - fire_time) AS lmax, AVG(created_at - fire_time) AS lavg FROM job_instance WHERE namespace = ?',
      [ns],
    );
    expect(Number(stats[0].c)).toBe(N + 1);
    expect(Number(stats[0].d)).toBe(N + 1);
    const [l]: Array<{ fire_time: string; created_at: string }> = await node.ds.query(
      'SELECT fire_time, created_at FROM job_instance WHERE job_id = ?',
      [later],
    );
    expect(Number(l.fire_time)).toBe(due + 1000);
    process.stdout.write(
      `[burst] ${N} fires due at once: max lateness ${stats[0].lmax} ms, mean ${Math.round(Number(stats[0].lavg))} ms; later bucket late by ${Number(l.created_at) - Number(l.fire_time)} ms\n`,
    );
    const next: Array<{ c: string }> = await node.ds.query(
      'SELECT COUNT(*) AS c FROM job_definition WHERE namespace = ? AND next_fire_time = ?',
      [ns, due + 3_600_000],
    );
    expect(Number(next[0].c)).toBe(N);
  }, 120_000);
});
