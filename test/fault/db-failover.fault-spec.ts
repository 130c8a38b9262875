import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import mysql from 'mysql2/promise';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { leaderPid, ProductSlot } from '../../scripts/chaos/lib/cluster.mjs';
import { prng } from '../../scripts/chaos/lib/options.mjs';
import { apiClient, cleanup, snapshotProduct } from '../../scripts/chaos/lib/product.mjs';
import { noneLeft, stopSchedules, unfinished } from '../../scripts/chaos/lib/quiesce.mjs';
import { startReceiver, type SideEffect } from '../../scripts/chaos/lib/receiver.mjs';
import { sleep, waitFor } from '../../scripts/chaos/lib/run-util.mjs';
import { judge } from '../../scripts/chaos/lib/verdict.mjs';
import { createJobs, submitTasks } from '../../scripts/chaos/lib/workload.mjs';
import { startApiProbe, summarize } from '../utils/api-probe.js';
import { APP_USER, promote, rootQuery, startReplicatedPair } from '../utils/mariadb-replication.js';
import { startTcpProxy } from '../utils/tcp-proxy.js';

const LOAD_S = 30;
const FAILOVER_AT_MS = 8_000;
/** From the kill to the promotion: a proxy's or orchestrator's detection (MaxScale: 2 s monitor × a few failures). */
const DETECT_MS = 5_000;
/**
 * FAULT_DB_LAG_MS=1000 runs the case on asynchronous replication with the replica's IO thread stopped that long
 * before the kill (a lagging replica): the verdict then fails, as docs/deploy.md "MySQL high availability" says.
 */
const LAG_MS = Number(process.env.FAULT_DB_LAG_MS ?? 0);

/** Prints one line of the test's figures on stdout (the fault tier's report). */
const say = (s: string) => process.stdout.write(`[fault db-failover] ${s}\n`);

/** The first side effect at or after `from` whose path starts with `prefix`, or undefined. */
const firstAfter = (log: SideEffect[], from: number, prefix: string) =>
  log.find((e) => e.at >= from && e.path.startsWith(prefix));

/**
 * Issue 27, database failover (docs/deploy.md "Database failover"): a MariaDB primary and its lossless
 * semi-synchronous replica of the test's own, the product behind a TCP proxy that follows the primary (as HAProxy,
 * ProxySQL or MaxScale would), so DB_URL never changes. Under cron jobs firing every 1-5 s and a stream of API
 * tasks (the chaos check's workload), the primary is SIGKILLed while the leader is SIGSTOPped; the replica is
 * promoted once it has applied all it received, the proxy switched, and the stopped leader woken after a standby
 * took over, so it resumes against the new primary with a lock it no longer holds. No process is restarted. The
 * chaos check's verdict must hold: every expected fire once, every accepted task once and final, every re-run
 * explained by a lost node or lease; the API keeps answering (2xx, or an error without hanging).
 */
describe('database failover', () => {
  it('should lose and double nothing when the primary dies and its replica is promoted', async () => {
    const started = Date.now();
    const rand = prng(Number(process.env.FAULT_SEED ?? Date.now() % 2 ** 31));
    const between = (lo: number, hi: number) => lo + rand() * (hi - lo);
    const namespace = `dbfail-${randomBytes(4).toString('hex')}`;
    const logDir = mkdtempSync(join(tmpdir(), `tw-${namespace}-`));
    const pair = await startReplicatedPair({ semiSync: LAG_MS === 0 });
    const proxy = await startTcpProxy(pair.primary.port);
    const redis = new Redis('redis://127.0.0.1:6379');
    const receiver = await startReceiver({ workMs: () => between(20, 200) });
    const slots: ProductSlot[] = [];
    let db: mysql.Pool | null = null;
    let appId: string | null = null;
    try {
      say(`servers up in ${Date.now() - started} ms: primary :${pair.primary.port}, replica :${pair.replica.port}`);
      const product = await snapshotProduct(logDir);
      const env = {
        DB_URL: `mysql://${APP_USER.user}:${APP_USER.password}@127.0.0.1:${proxy.port}/test`,
        REDIS_URL: 'redis://127.0.0.1:6379',
        TICKWHEEL_SECRET_KEY: randomBytes(32).toString('hex'),
        TICKWHEEL_NAMESPACE: namespace,
        EGRESS_ALLOW: '*,127.0.0.1',
        CALLBACK_HOST_DOWN_AFTER: '1000',
        HEARTBEAT_INTERVAL_MS: '500',
        NODE_OFFLINE_AFTER_MS: '2500',
        RECONCILE_INTERVAL_MS: '1000',
        LEADER_LEASE_MS: '3000',
        LEASE_MS: '10000',
        LEASE_RENEW_MS: '2000',
      };
      const slot = (name: string, role: 'executor' | 'scheduler', roles: string) =>
        new ProductSlot({ repo: product, logDir, name, role, env: { ...env, ROLES: roles } });
      const api = slot('api', 'scheduler', 'api');
      // The schedulers log at info: the stale leader's "lost leadership" line is evidence the fault happened.
      const sched = (name: string) =>
        new ProductSlot({
          repo: product,
          logDir,
          name,
          role: 'scheduler',
          env: { ...env, ROLES: 'scheduler', LOG_LEVEL: 'info' },
        });
      const schedulers = [sched('sched-a'), sched('sched-b')];
      const executors = [slot('exec-1', 'executor', 'executor'), slot('exec-2', 'executor', 'executor')];
      slots.push(api, ...schedulers, ...executors);
      await api.start(); // it applies the migrations, as the app user
      const app = await apiClient(env, product);
      appId = app.appId;
      const client = () =>
        new TickwheelClient({ baseUrl: `http://127.0.0.1:${api.port}`, appId: app.appId, secret: app.secret });
      await Promise.all([...schedulers, ...executors].map((s) => s.start()));
      const o = { jobs: 10, tasks: 240, duration: LOAD_S, 'delayed-share': 0.3, 'fail-share': 0.1, rand, between };
      const to = { receiver, callbacks: { url: receiver.url } };
      const jobs = await createJobs(client, o, to);
      say(`cluster up and ${jobs.length} jobs at ${Date.now() - started} ms; namespace ${namespace}`);

      const t0 = Date.now();
      const submits = submitTasks(client, o, { namespace, ...to, t0 });
      const probe = startApiProbe(client, `probe-${namespace}`, `${receiver.url}/task`);
      await sleep(t0 + FAILOVER_AT_MS - LAG_MS - Date.now());
      if (LAG_MS > 0) await rootQuery(pair.replica.port, 'STOP SLAVE IO_THREAD');
      await sleep(t0 + FAILOVER_AT_MS - Date.now());

      // The fault: the leader stops (its lock runs out during the outage) and the primary dies.
      const staleLeaderPid = await leaderPid(redis, namespace);
      const stale = schedulers.find((s) => s.pid === staleLeaderPid);
      if (!stale) throw new Error(`no scheduler of the test leads (lock owner pid ${staleLeaderPid})`);
      stale.child?.kill('SIGSTOP');
      const killAt = Date.now();
      const tookOver = (async () => {
        await waitFor(
          'a standby to take the lead',
          async () => ![null, staleLeaderPid].includes(await leaderPid(redis, namespace)),
          30_000,
          100,
        );
        return Date.now();
      })();
      pair.primary.signal('SIGKILL');
      await proxy.setTarget(null); // marked down by its health check: new connections are closed at once
      await sleep(DETECT_MS);
      const promotedAt = await promote(pair.replica);
      await proxy.setTarget(pair.replica.port);
      const switchAt = Date.now();
      say(
        `primary SIGKILLed; replica promoted at GTID ${promotedAt} and the proxy switched after ${switchAt - killAt} ms`,
      );
      const newLeaderAt = await tookOver;
      await sleep(2_000);
      stale.child?.kill('SIGCONT');
      const wokeAt = Date.now();

      await submits.done;
      await probe.stop();
      const calls = receiver.log.filter((e) => !e.path.startsWith('/cb'));
      const fire = firstAfter(calls, switchAt, '/fire/');
      const task = firstAfter(calls, switchAt, '/task');
      const answers = summarize(probe.answers.filter((a) => a.at >= killAt && a.at <= switchAt + 5_000));
      const all = summarize(probe.answers);
      say(
        `after the kill: new leader ${newLeaderAt - killAt} ms; first fire ${fire ? fire.at - killAt : '-'} ms, ` +
          `first task run ${task ? task.at - killAt : '-'} ms (${fire ? fire.at - switchAt : '-'} / ` +
          `${task ? task.at - switchAt : '-'} ms after the switch); stale leader woken ${wokeAt - killAt} ms`,
      );
      say(
        `API answers around the failover ${JSON.stringify(answers.byStatus)}, max ${answers.maxMs} ms; whole run ` +
          `${JSON.stringify(all.byStatus)}, max ${all.maxMs} ms; probe tasks ${probe.requestIds.length}`,
      );

      // Judge: the test's own reads go through the proxy too, to the new primary.
      db = mysql.createPool({
        host: '127.0.0.1',
        port: proxy.port,
        user: 'root',
        database: 'test',
        connectionLimit: 4,
      });
      const { stopAt, pausedAt } = await stopSchedules({ db, redis, namespace, schedulers, client, jobs });
      const settled = await noneLeft(db, 'every instance to reach a final state', ...unfinished(namespace), 60_000);
      const staleLog = readFileSync(join(logDir, `${stale.name}.log`), 'utf8');
      const stepDowns = staleLog.split('\n').filter((l) => l.includes('lost leadership')).length;
      const restarted = slots.filter((s) => s.starts !== 1 || !s.alive).map((s) => s.name);
      const taskIds = [...submits.taskIds, ...probe.requestIds];
      const log = receiver.log.filter((e) => !e.path.startsWith('/cb'));
      const v = await judge(db, { namespace, taskIds, failing: submits.failing, stopAt, pausedAt, log });
      const k = v.counts;
      say(
        `verdict ${v.ok ? 'OK' : 'FAIL'}: fires=${k.fires} (expected ${k.expectedFires}) tasks=${k.tasks}/` +
          `${taskIds.length} missing=${k.missing} dup=${k.dup} extra=${k.extra} doubleSuccess=${k.doubleSuccess} ` +
          `unfinished=${k.unfinished} failed=${k.failed} failing=${k.failing}/${submits.failing.size} ` +
          `reruns=${k.reruns} (explained ${k.explained}) untraced=${k.untraced} noEffect=${k.noEffect}; ` +
          `settled=${settled}; stale leader stepped down ${stepDowns}x; wall ${((Date.now() - started) / 1000).toFixed(0)} s`,
      );
      for (const e of v.examples) say(`  ${e}`);
      if (!v.ok) for (const s of slots) say(`  ${s.name} tail:\n${s.tail.slice(-8).join('\n')}`);

      expect(restarted).toEqual([]);
      expect(stepDowns).toBeGreaterThanOrEqual(1); // it woke a leader without the lock, and found out
      expect(fire).toBeDefined();
      expect(task).toBeDefined();
      expect(all.byStatus['-1'] ?? 0).toBe(0); // no answer hung past 20 s
      // While the database is unreachable every answer is a 503 with Retry-After (docs/api.md), never a 500.
      const odd = probe.answers.filter((a) => !(a.status === 202 || (a.status === 503 && a.retryAfter)));
      expect(odd.map((a) => `${a.status} after ${a.at - killAt} ms`)).toEqual([]);
      expect(k).toMatchObject({ missing: 0, dup: 0, extra: 0, doubleSuccess: 0, unfinished: 0, failed: 0 });
      expect(k).toMatchObject({ unexplained: 0, untraced: 0, noEffect: 0 });
      expect(k.failing).toBe(submits.failing.size);
      expect(k.expectedFires).toBeGreaterThan(0);
      expect(v.ok).toBe(true);
      // The new primary is what the replica was: read_only off, no replication left.
      const [ro] = await rootQuery(pair.replica.port, 'SELECT @@read_only AS r');
      expect(Number(ro?.r)).toBe(0);
    } finally {
      await Promise.all(slots.map((s) => s.stop(5_000)));
      if (db) await cleanup(db, redis, namespace, appId).catch(() => undefined);
      await db?.end();
      redis.disconnect();
      await receiver.close();
      await proxy.close();
      await pair.stop();
      rmSync(logDir, { recursive: true, force: true });
    }
  }, 150_000);
});
