import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../../src/modules/metadata/index.js';
import { ProductProcess, startProcess } from '../utils/process-node.js';
import { MYSQL_URL, REDIS_URL, TEST_SECRET_KEY, uniqueNamespace, waitFor } from '../utils/test-node.js';
import { deleteNamespaceRows } from '../utils/namespace-rows.js';
import { sleep } from '../utils/async.js';

const JOBS = 10;
/**
 * Leader failover with real processes (docs/trigger.md "Leader election", "Misfire"): SIGKILL the leader, then
 * SIGSTOP the next one past its lease and SIGCONT it. Jobs fire every second with FIRE_ALL, so a takeover must make
 * up every second it missed: the ledger must have each job's fires contiguous, with no gap and no duplicate.
 */
describe('scheduler failover with real processes', () => {
  const ns = uniqueNamespace('e2e-failover');
  const env = {
    DB_URL: MYSQL_URL,
    REDIS_URL,
    TICKWHEEL_SECRET_KEY: TEST_SECRET_KEY,
    TICKWHEEL_NAMESPACE: ns,
    ROLES: 'scheduler',
    PORT: '0',
    LEADER_LEASE_MS: '2000',
    RECONCILE_INTERVAL_MS: '600000',
    DUE_ALERT_AFTER_MS: '600000',
  };
  let ds: DataSource;
  let redis: Redis;
  const procs: ProductProcess[] = [];

  const leaderPid = async (): Promise<number | null> => {
    const owner = await redis.get(`{tw:${ns}}:lock:leader`);
    return owner ? Number(owner.split('-')[0]) : null;
  };
  const byPid = (pid: number | null) => procs.find((p) => p.pid === pid);

  beforeAll(async () => {
    ds = await new DataSource(dataSourceOptions({ database: { type: 'mysql', url: MYSQL_URL } })).initialize();
    await runMigrations(ds); // the rows below are written before any product process could migrate a fresh database
    redis = new Redis(REDIS_URL);
    await insertEverySecondJobs(ns, JOBS);
  });

  afterAll(async () => {
    for (const p of procs) await p.stop(3000);
    await deleteNamespaceRows(ds, ns, { definitions: true });
    await ds?.destroy();
    redis?.disconnect();
  });

  it('should lose no fire and double none across SIGKILL and SIGSTOP/SIGCONT of the leader', async () => {
    procs.push(startProcess(env), startProcess(env));
    await waitFor('a leader', async () => byPid(await leaderPid()) !== undefined, 30_000, 100);
    await sleep(3000); // time passes on purpose: the leader fires for a while before it is killed
    const first = byPid(await leaderPid()) as ProductProcess;
    first.signal('SIGKILL');
    await first.exited;
    procs.push(startProcess(env));
    await waitFor(
      'a new leader',
      async () => {
        const p = byPid(await leaderPid());
        return p !== undefined && p !== first;
      },
      30_000,
      100,
    );
    await sleep(3000); // the same for the second leader before it is stopped
    const second = byPid(await leaderPid()) as ProductProcess;
    second.signal('SIGSTOP');
    await waitFor(
      'a third leader while the second is stopped',
      async () => {
        const p = byPid(await leaderPid());
        return p !== undefined && p !== second && p !== first;
      },
      30_000,
      100,
    );
    await sleep(1000); // the third leader fires while the second is stopped
    second.signal('SIGCONT'); // it wakes up believing it leads: its renewal fails and it steps down
    await sleep(4000); // the window in which the woken process could fire beside the leader
    const end = Date.now();
    await waitForFiresUpTo(ns, JOBS, end);
    for (const p of procs) await p.stop(5000);

    await expectContiguousLedger(ns, JOBS, end);
  }, 240_000);

  it('should lose no fire and double none when the leader is SIGKILLed at random points of firing, again and again', async () => {
    const busy = uniqueNamespace('e2e-killloop');
    await insertEverySecondJobs(busy, 300);
    const e = { ...env, TICKWHEEL_NAMESPACE: busy };
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 6; round++) {
      const p = startProcess(e);
      procs.push(p);
      await leads(p, busy);
      await sleep(300 + rand() * 2200); // a random point of firing to kill it at
      p.signal('SIGKILL');
      await p.exited;
      await redis.del(`{tw:${busy}}:lock:leader`); // skip the lease wait: the next process leads at once
    }
    const last = startProcess(e);
    procs.push(last);
    // It leads (a fixed 6-s sleep had to cover its start too, which a loaded machine could take most of), makes
    // up what the kills missed and keeps firing.
    await leads(last, busy);
    await sleep(3000); // time passes on purpose: the last leader keeps firing
    const end = Date.now();
    await waitForFiresUpTo(busy, 300, end);
    await last.stop(5000);
    await expectContiguousLedger(busy, 300, end);
    await deleteNamespaceRows(ds, busy, { definitions: true });
  }, 360_000);

  /**
   * Waits until process `p` holds the leader lock of `namespace`; fails at once, with the process's output, if it
   * exits first, and with its output on a timeout (a CI run once timed out here without saying why).
   */
  async function leads(p: ProductProcess, namespace: string): Promise<void> {
    try {
      await waitFor(
        `process ${p.pid} to lead`,
        async () => {
          if (p.child.exitCode !== null || p.child.signalCode !== null)
            throw new Error(`process ${p.pid} ended (${p.child.exitCode ?? p.child.signalCode}) before leading`);
          return (await redis.get(`{tw:${namespace}}:lock:leader`))?.startsWith(`${p.pid}-`) ?? false;
        },
        60_000,
        50,
      );
    } catch (err) {
      throw new Error(
        `${(err as Error).message}; lock held by ${await redis.get(`{tw:${namespace}}:lock:leader`)}; its output:\n${p.output().slice(-4000)}`,
        { cause: err },
      );
    }
  }

  /** Inserts `n` enabled FIRE_ALL jobs firing every second from the next whole second + 3 s. */
  async function insertEverySecondJobs(namespace: string, n: number): Promise<void> {
    const now = Date.now();
    const first = now - (now % 1000) + 3000;
    for (let i = 0; i < n; i++) {
      await ds.query(
        `INSERT INTO job_definition (id, namespace, code, handler, trigger_type, trigger_expr, time_zone, routing_strategy, shard_total, misfire_policy,
           overlap_policy, max_concurrency, timeout_ms, retry_max, retry_backoff_ms, retry_backoff_kind, enabled, schedule_state, next_fire_time, version, created_at, updated_at)
         VALUES (?, ?, ?, 'nobody.serves.this', 'FIXED_RATE', '1000', 'UTC', 'ROUND_ROBIN', 1, 'FIRE_ALL', 'ALLOW', 0, 60000, 0, 1000, 'FIXED', 1, 'OK', ?, 1, ?, ?)`,
        [randomUUID(), namespace, `every-second-${i}`, first, now, now],
      );
    }
  }

  /**
   * Waits until every job of `namespace` has a fire after `end` - 4 s (what {@link expectContiguousLedger} asks
   * of the last one): a leader that just took over on a loaded machine may still be making up missed seconds.
   */
  async function waitForFiresUpTo(namespace: string, jobs: number, end: number): Promise<void> {
    await waitFor(
      'every job firing up to the end',
      async () => {
        const last: Array<{ t: string | number }> = await ds.query(
          'SELECT MAX(fire_time) AS t FROM job_instance WHERE namespace = ? GROUP BY job_id',
          [namespace],
        );
        return last.length === jobs && last.every((r) => Number(r.t) > end - 4000);
      },
      60_000,
      200,
    );
  }

  /** Every job of `namespace` has fires exactly 1 s apart, none twice, up to near `end`. */
  async function expectContiguousLedger(namespace: string, jobs: number, end: number): Promise<void> {
    const rows: Array<{ job_id: string; fire_time: string | number }> = await ds.query(
      'SELECT job_id, fire_time, trigger_source, status, created_at FROM job_instance WHERE namespace = ? ORDER BY job_id, fire_time',
      [namespace],
    );
    const byJob = new Map<string, number[]>();
    for (const r of rows) {
      const list = byJob.get(r.job_id) ?? [];
      list.push(Number(r.fire_time));
      byJob.set(r.job_id, list);
    }
    expect(byJob.size).toBe(jobs);
    for (const [, fires] of byJob) {
      expect(new Set(fires).size).toBe(fires.length); // no duplicate
      const gaps = fires
        .slice(1)
        .map((f, i) => f - fires[i])
        .filter((d) => d !== 1000);
      if (gaps.length > 0) {
        const at = fires.findIndex((f, i) => i > 0 && f - fires[i - 1] !== 1000);
        const near = rows.filter(
          (r) => Math.abs(Number(r.fire_time) - fires[at]) <= 4000 && byJob.get(r.job_id) === fires,
        );
        process.stderr.write(
          `[failover] gap before ${fires[at]} (${gaps.length} gap(s)); rows near it: ${JSON.stringify(near)}\n`,
        );
      }
      expect(gaps).toEqual([]); // no missing second
      expect(fires.at(-1) as number).toBeGreaterThan(end - 4000); // kept firing up to the end
    }
  }
});
