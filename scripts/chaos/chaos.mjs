// Chaos check of Tickwheel (issue 4 point 7, docs/guarantees.md). Run: npm run chaos [-- flags]; see README "Chaos check".
//
// Starts on loopback two scheduler processes (the first also serves the API) and several executor processes
// of the product (node dist/src/main.js) on the real MariaDB and Redis, in a fresh namespace; registers cron
// jobs firing every 1-5 s and submits API tasks (single and batch), all running the built-in `http` handler
// against a receiver in this process that logs every call (the side-effect log); SIGKILLs executors and the
// leader at random moments (and SIGSTOPs some executors past the offline threshold), restarting them; then
// stops the schedules, waits for quiescence and judges from MySQL and the log (lib/verdict.mjs). Every instance
// is called back (the app's default registration, some jobs' and tasks' own URLs) to a second receiver that
// checks signatures and fails one answer in ten; the senders run on the schedulers the run SIGKILLs, and
// lib/callback-verdict.mjs judges the deliveries. It prints one verdict line and exits 1 when anything is
// lost, doubled, unfinished or unexplained.
//
// `--kill-latency N` is another mode: with the product's default lease settings, SIGKILL an executor
// running a long task N times and print how long until the task starts again elsewhere (p50/p99).
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import { Redis } from 'ioredis';
import { parseArgs } from '../../bench/lib/stats.mjs';
import { leaderPid, ProductSlot } from './lib/cluster.mjs';
import { startReceiver } from './lib/receiver.mjs';
import { judge, FINAL } from './lib/verdict.mjs';
import { judgeCallbacks } from './lib/callback-verdict.mjs';
import { startCallbackReceiver } from '../../bench/lib/callback-receiver.mjs';
import { runKillLatency } from './lib/kill-latency.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const HELP = `npm run chaos -- [--small] [--executors 4] [--jobs 100] [--tasks 1500] [--duration 90] [--kill-every 3]
  [--leader-share 0.25] [--stall-share 0.15] [--work-ms 20-300] [--delayed-share 0.3] [--settle 120] [--seed N]
  [--env K=V,K=V] [--keep] [--db mysql://root@127.0.0.1:3306/test] [--redis redis://127.0.0.1:6379]
npm run chaos -- --kill-latency 20 [--executors 3] [--parallel 1] [--target 20] [--env K=V] [--seed N]`;

const DEFAULTS = {
  small: false,
  executors: 4,
  jobs: 100,
  tasks: 1500,
  duration: 90,
  'kill-every': 3,
  'leader-share': 0.25,
  'stall-share': 0.15,
  'work-ms': '20-300',
  'delayed-share': 0.3,
  settle: 120,
  seed: 0,
  env: '',
  keep: false,
  help: false,
  'kill-latency': 0,
  parallel: 1,
  target: 20,
  db: process.env.CHAOS_DB_URL ?? 'mysql://root@127.0.0.1:3306/test',
  redis: process.env.CHAOS_REDIS_URL ?? 'redis://127.0.0.1:6379',
};
/** `--small`: the CI size (about a minute in all on a 2-core machine). Explicit flags still win. */
const SMALL = { executors: 3, jobs: 24, tasks: 240, duration: 25, 'kill-every': 2.5, settle: 60 };

const argv = process.argv.slice(2);
let args;
try {
  args = parseArgs(DEFAULTS, argv);
} catch (err) {
  console.error(`chaos: ${err.message}\n${HELP}`);
  process.exit(2);
}
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
if (args.small) {
  const given = new Set(argv.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')[0]));
  for (const [k, v] of Object.entries(SMALL)) if (!given.has(k)) args[k] = v;
}
if (!args.seed) args.seed = Math.floor(Math.random() * 2 ** 31);

/** Seeded PRNG (mulberry32), so a failing run can be replayed with --seed. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(args.seed);
/** The callback receiver's own stream, so its answers do not shift the run's kills and submits. */
const receiverRand = prng(args.seed + 1);
/** Share of callback answers that are a 500 (a retry follows). */
const CALLBACK_FAIL_SHARE = 0.1;
const between = (lo, hi) => lo + rand() * (hi - lo);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (s) => process.stderr.write(`[chaos ${new Date().toISOString().slice(11, 23)}] ${s}\n`);
const extraEnv = Object.fromEntries(
  args.env
    .split(',')
    .filter(Boolean)
    .map((kv) => kv.split(/=(.*)/s).slice(0, 2)),
);

/** Polls `fn` until it returns true; throws after `timeoutMs` naming `what`. */
async function waitFor(what, fn, timeoutMs, everyMs = 200) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await fn()) return;
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Runs `fn` over `items` with at most `n` in flight. */
async function pool(items, n, fn) {
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (i < items.length) await fn(items[i++]);
    }),
  );
}

/**
 * Copies the built dist/ into the run's directory and runs the product from there, so a rebuild of the shared
 * tree during the run (another engineer, the test setup) cannot pull files from under a restart.
 * @returns {string} the product root (holds dist/, a node_modules link and a package.json of type module)
 */
async function snapshotProduct(dir) {
  const main = join(REPO, 'dist/src/main.js');
  for (let i = 0; !existsSync(main); i++) {
    if (i > 120) throw new Error('dist/src/main.js is missing: run npm run build');
    await sleep(500); // someone is rebuilding dist/ right now
  }
  const root = join(dir, 'product');
  cpSync(join(REPO, 'dist'), join(root, 'dist'), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  return root;
}

/**
 * Creates an API client with the product's own CLI and returns its id and secret. It is unlimited
 * (--rate-limit 0): the run submits thousands of tasks as fast as it can, which the default rate limit would slow.
 */
async function apiClient(env, product) {
  const appId = `chaos-${randomBytes(4).toString('hex')}`;
  const out = execFileSync(
    process.execPath,
    [join(product, 'dist/src/bin/create-app.js'), appId, '--rate-limit', '0'],
    {
      cwd: product,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'error', ...env },
      encoding: 'utf8',
    },
  );
  const secret = /Secret:\s+(\S+)/.exec(out)?.[1];
  if (!secret) throw new Error(`create-app printed no secret:\n${out}`);
  return { appId, secret };
}

/** Sends a signed request until it gets an answer that is not a connection error or a 5xx (the API process may be down). */
async function persist(what, send, giveUpAt) {
  for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
    try {
      const res = await send();
      if (res.status < 500) return res;
    } catch {
      /* connection refused or reset: the API process is being killed or restarted */
    }
    if (Date.now() > giveUpAt) throw new Error(`${what}: no answer from the API`);
    await sleep(delay);
  }
}

/** Deletes what the run wrote: instances, attempts, callbacks, jobs, audit rows, the API client and Redis keys. */
async function cleanup(db, redis, namespace, appId) {
  await db.query('DELETE a FROM job_attempt a JOIN job_instance i ON i.id = a.instance_id WHERE i.namespace = ?', [
    namespace,
  ]);
  await db.query(
    'DELETE d FROM callback_delivery d JOIN job_instance i ON i.id = d.instance_id WHERE i.namespace = ?',
    [namespace],
  );
  await db.query('DELETE FROM callback_host WHERE namespace = ?', [namespace]);
  await db.query('DELETE FROM job_instance WHERE namespace = ?', [namespace]);
  await db.query('DELETE FROM job_definition WHERE namespace = ?', [namespace]);
  if (appId) {
    await db.query('DELETE FROM callback_registration WHERE app_id = ?', [appId]);
    await db.query('DELETE FROM audit_log WHERE app_id = ?', [appId]).catch(() => undefined);
    await db.query('DELETE FROM api_client WHERE app_id = ?', [appId]).catch(() => undefined);
  }
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `{tw:${namespace}}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.unlink(...keys);
  } while (cursor !== '0');
}

/** The chaos run proper. @returns {Promise<number>} exit code */
async function runChaos(ctx) {
  const { db, redis, namespace, env, slots, receiver, callbacks } = ctx;
  const schedulers = slots.filter((s) => s.role === 'scheduler');
  const executors = slots.filter((s) => s.role === 'executor');
  const apiSlot = schedulers[0];
  await apiSlot.start();
  const { appId, secret } = await apiClient(env, ctx.product);
  ctx.appId = appId;
  // The API process gets a new port on each restart: the client follows it.
  const { TickwheelClient, verifyCallback } = await import(join(ctx.product, 'dist/src/client/tickwheel-client.js'));
  const client = () => new TickwheelClient({ baseUrl: `http://127.0.0.1:${apiSlot.port}`, appId, secret });
  callbacks.verify = (headers, raw) => verifyCallback(headers, raw, secret);
  const registered = await persist(
    'register the default callback',
    () => client().registerCallback(`${callbacks.url}/cb/default`),
    Date.now() + 60_000,
  );
  if (registered.status >= 300) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  await Promise.all([...schedulers.slice(1), ...executors].map((s) => s.start()));
  log(
    `cluster up: ${schedulers.length} schedulers, ${executors.length} executors; namespace ${namespace}; logs in ${ctx.logDir}`,
  );

  // Cron jobs: every k s, k = 1..5; FIRE_ALL, so a fire missed while no leader ran is made up, never dropped.
  // A third of the jobs have their own callback URL; the rest use the app's default registration.
  const jobs = Array.from({ length: args.jobs }, (_, i) => ({
    code: `chaos-job-${i}`,
    k: 1 + (i % 5),
    ownCb: i % 3 === 0,
  }));
  const setupUntil = Date.now() + 120_000;
  await pool(jobs, 8, async (j) => {
    const res = await persist(
      `create ${j.code}`,
      () =>
        client().request('POST', '/api/jobs', {
          code: j.code,
          handler: 'http',
          triggerType: 'CRON',
          triggerExpr: j.k === 1 ? '* * * * * *' : `*/${j.k} * * * * *`,
          params: { method: 'POST', url: `${receiver.url}/fire/${j.code}` },
          misfirePolicy: 'FIRE_ALL',
          retryMax: 19,
          retryBackoffMs: 100,
          ...(j.ownCb ? { callbackUrl: `${callbacks.url}/cb/job` } : {}),
        }),
      setupUntil,
    );
    if (res.status !== 201 && res.status !== 200)
      throw new Error(`create ${j.code}: ${res.status} ${JSON.stringify(res.body)}`);
  });
  log(`${jobs.length} cron jobs registered (every 1-5 s)`);

  const t0 = Date.now();
  const chaosEnd = t0 + args.duration * 1000;
  const events = { kills: 0, executorKills: 0, leaderKills: 0, stalls: 0 };
  const restarts = new Set();
  const restartLater = (slot, ms) => {
    const p = sleep(ms)
      .then(() => slot.start())
      .catch((err) => log(`restart of ${slot.name} failed: ${err.message}`))
      .finally(() => restarts.delete(p));
    restarts.add(p);
  };

  const chaos = (async () => {
    while (Date.now() < chaosEnd) {
      await sleep(between(0.5, 1.5) * args['kill-every'] * 1000);
      if (Date.now() >= chaosEnd) break;
      const pid = await leaderPid(redis, namespace);
      const leader = schedulers.find((s) => s.pid === pid && s.alive);
      const bothSchedulersUp = schedulers.every((s) => s.alive && !s.starting);
      if (leader && bothSchedulersUp && rand() < args['leader-share']) {
        await leader.kill();
        events.kills++;
        events.leaderKills++;
        log(`SIGKILL leader ${leader.name} (pid ${pid})`);
        restartLater(leader, between(300, 2500));
        continue;
      }
      const up = executors.filter((s) => s.alive && !s.starting && !s.stalled);
      if (up.length <= 1) continue; // keep one executor serving
      const victim = up[Math.floor(rand() * up.length)];
      if (rand() < args['stall-share']) {
        // SIGSTOP past the offline threshold: its work is taken away and re-run; after SIGCONT its late writes must lose.
        const ms = Number(env.NODE_OFFLINE_AFTER_MS) + between(1000, 3000);
        victim.stalled = true;
        victim.child.kill('SIGSTOP');
        events.stalls++;
        log(`SIGSTOP ${victim.name} for ${Math.round(ms)} ms`);
        const p = sleep(ms)
          .then(() => {
            victim.child?.kill('SIGCONT');
            victim.stalled = false;
          })
          .finally(() => restarts.delete(p));
        restarts.add(p);
        continue;
      }
      await victim.kill();
      events.kills++;
      events.executorKills++;
      log(`SIGKILL executor ${victim.name} (node ${victim.nodeName})`);
      restartLater(victim, between(300, 2500));
    }
  })();

  // API tasks, spread over the first 80% of the chaos window: batches and single submits, some delayed.
  const taskIds = [];
  const ownCallback = new Set();
  const submitting = (async () => {
    const perMs = args.tasks / (args.duration * 800);
    let nextAt = t0;
    let i = 0;
    while (i < args.tasks) {
      const n = Math.min(args.tasks - i, Math.max(1, Math.round(between(1, 60))));
      const tasks = Array.from({ length: n }, () => {
        const requestId = `chaos-${namespace}-t${i++}`;
        taskIds.push(requestId);
        const delayMs = rand() < args['delayed-share'] ? Math.round(between(0, 3000)) : undefined;
        const ownCb = rand() < 0.5;
        if (ownCb) ownCallback.add(requestId);
        return {
          requestId,
          handler: 'http',
          params: { method: 'POST', url: `${receiver.url}/task` },
          maxAttempts: 20,
          retryBackoffMs: 100,
          ...(delayMs ? { delayMs } : {}),
          ...(ownCb ? { callbackUrl: `${callbacks.url}/cb/task` } : {}),
        };
      });
      const giveUp = Date.now() + 90_000;
      if (n >= 5) {
        const res = await persist('batch submit', () => client().submitTasks(tasks), giveUp);
        const refused = res.status === 202 ? res.body.results.filter((r) => r.error) : [res.body];
        if (refused.length > 0) throw new Error(`batch refused: ${res.status} ${JSON.stringify(refused[0])}`);
      } else {
        for (const t of tasks) {
          const res = await persist('submit', () => client().submitTask(t), giveUp);
          if (res.status !== 202) throw new Error(`submit ${t.requestId}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      }
      nextAt += (n / perMs) * between(0.5, 1.5);
      await sleep(nextAt - Date.now());
    }
  })();

  await Promise.all([chaos, submitting]);
  await Promise.all([...restarts]);
  for (const s of slots) if (!s.alive) await s.start();
  log(
    `chaos over after ${((Date.now() - t0) / 1000).toFixed(0)} s: ${events.kills} kills (${events.executorKills} executors, ${events.leaderKills} leaders), ${events.stalls} stalls; ${taskIds.length} tasks submitted`,
  );

  // Stop the schedules: first let the leader catch up (every fire due so far written), then pause every job.
  await waitFor(
    'a leader',
    async () => {
      const pid = await leaderPid(redis, namespace);
      return schedulers.some((s) => s.pid !== null && s.pid === pid);
    },
    30_000,
  );
  let stopAt = 0;
  await waitFor(
    'the leader to catch up with the schedule',
    async () => {
      const now = Date.now();
      const [[r]] = await db.query(
        'SELECT COUNT(*) AS c FROM job_definition WHERE namespace = ? AND enabled = 1 AND next_fire_time <= ?',
        [namespace, now],
      );
      stopAt = now;
      return Number(r.c) === 0;
    },
    60_000,
    100,
  );
  const pausedAt = new Map();
  const pauseUntil = Date.now() + 60_000;
  await pool(jobs, 8, async (j) => {
    const res = await persist(
      `pause ${j.code}`,
      () => client().request('POST', `/api/jobs/${j.code}/pause`),
      pauseUntil,
    );
    if (res.status >= 300) throw new Error(`pause ${j.code}: ${res.status} ${JSON.stringify(res.body)}`);
    pausedAt.set(j.code, Date.now());
  });
  log(`schedules stopped (fires up to ${new Date(stopAt).toISOString()} expected); waiting for quiescence`);
  const settleFrom = Date.now();

  /** Waits (at most --settle s) until `sql` counts no row; true when it got there. */
  const noneLeft = (what, sql, params) =>
    waitFor(
      what,
      async () => {
        const [[r]] = await db.query(sql, params);
        return Number(r.c) === 0;
      },
      args.settle * 1000,
      250,
    ).then(
      () => true,
      () => false,
    );
  const settled = await noneLeft(
    'every instance to reach a final state',
    `SELECT COUNT(*) AS c FROM job_instance WHERE namespace = ? AND status NOT IN (${[...FINAL].map(() => '?').join(',')})`,
    [namespace, ...FINAL],
  );
  const quietMs = Date.now() - settleFrom;
  await Promise.all(executors.map((s) => s.stop()));
  // The schedulers send the callbacks: they stay up until no delivery of the run is due any more.
  const cbFrom = Date.now();
  const cbSettled = await noneLeft(
    'every callback to be delivered or failed',
    `SELECT COUNT(*) AS c FROM callback_delivery d JOIN job_instance i ON i.id = d.instance_id
      WHERE i.namespace = ? AND d.state IN ('PENDING', 'RETRYING')`,
    [namespace],
  );
  const cbQuietMs = Date.now() - cbFrom;
  await Promise.all(schedulers.map((s) => s.stop()));
  const v = await judge(db, { namespace, taskIds, stopAt, pausedAt, log: receiver.log });
  const codeOf = new Map(jobs.map((j) => [j.code, j]));
  const cb = await judgeCallbacks(db, {
    namespace,
    deliveries: callbacks.log,
    expectedPath: (r) =>
      r.job_code
        ? codeOf.get(r.job_code)?.ownCb
          ? '/cb/job'
          : '/cb/default'
        : ownCallback.has(r.request_id)
          ? '/cb/task'
          : '/cb/default',
  });
  const k = v.counts;
  const q = cb.counts;
  const ok = v.ok && cb.ok;
  const line =
    `chaos: ${v.ok ? 'OK' : 'FAIL'} fires=${k.fires} (expected ${k.expectedFires}) tasks=${k.tasks}/${taskIds.length} kills=${events.kills} ` +
    `(executors ${events.executorKills}, leader ${events.leaderKills}) stalls=${events.stalls} reruns=${k.reruns} (explained ${k.explained}) ` +
    `missing=${k.missing} dup=${k.dup} extra=${k.extra} doubleSuccess=${k.doubleSuccess} unfinished=${k.unfinished} failed=${k.failed} ` +
    `untraced=${k.untraced} noEffect=${k.noEffect} effects=${k.effects} settle=${(quietMs / 1000).toFixed(1)}s${settled ? '' : ' (timed out)'} ` +
    `callbacks=${q.delivered}/${q.expected} cbMissing=${q.cbMissing} cbFailed=${q.cbFailed} cbLost=${q.cbLost} cbSplit=${q.cbSplit} ` +
    `cbBadSig=${q.cbBadSig} cbWrongUrl=${q.cbWrongUrl} cbWrongStatus=${q.cbWrongStatus} cbDupSeen=${q.cbDupSeen} cbRetried=${q.cbRetried} ` +
    `cbSettle=${(cbQuietMs / 1000).toFixed(1)}s${cbSettled ? '' : ' (timed out)'} seed=${args.seed}`;
  if (!v.ok) for (const e of v.examples) log(`  ${e}`);
  if (!cb.ok) for (const e of cb.examples) log(`  ${e}`);
  console.log(`chaos: ${ok ? 'OK' : 'FAIL'}${line.slice('chaos: '.length + (v.ok ? 2 : 4))}`);
  return ok ? 0 : 1;
}

async function main() {
  const namespace = `chaos-${randomBytes(4).toString('hex')}`;
  const logDir = join(tmpdir(), `tickwheel-${namespace}`);
  mkdirSync(logDir, { recursive: true });
  const product = await snapshotProduct(logDir);
  const db = mysql.createPool({ uri: args.db, connectionLimit: 4 });
  const redis = new Redis(args.redis, { lazyConnect: false });
  const latencyMode = args['kill-latency'] > 0;
  // Chaos mode shortens the timings so a small run sees many faults; kill-latency mode measures the defaults.
  const fast = latencyMode
    ? {}
    : {
        HEARTBEAT_INTERVAL_MS: '500',
        NODE_OFFLINE_AFTER_MS: '2500',
        RECONCILE_INTERVAL_MS: '1000',
        LEADER_LEASE_MS: '3000',
        LEASE_MS: '10000',
        LEASE_RENEW_MS: '2000',
      };
  const env = {
    DB_URL: args.db,
    REDIS_URL: args.redis,
    TICKWHEEL_SECRET_KEY: randomBytes(32).toString('hex'),
    TICKWHEEL_NAMESPACE: namespace,
    // The receivers listen on 127.0.0.1, which the default egress policy refuses.
    EGRESS_ALLOW: '*,127.0.0.1',
    // Callbacks: short waits, and a lease that a SIGKILLed scheduler's claims outlive only briefly.
    CALLBACK_RETRY_DELAYS_MS: '200,500,1000,2000,3000',
    CALLBACK_CONNECT_TIMEOUT_MS: '1000',
    CALLBACK_READ_TIMEOUT_MS: '2000',
    CALLBACK_LEASE_MS: '4000',
    ...fast,
    ...extraEnv,
  };
  const [workLo, workHi] = args['work-ms'].split('-').map(Number);
  const receiver = await startReceiver({ workMs: () => between(workLo, workHi ?? workLo) });
  const callbacks = { verify: () => ({ ok: false, reason: 'no app yet' }) };
  Object.assign(
    callbacks,
    await startCallbackReceiver({
      verify: (headers, raw) => callbacks.verify(headers, raw),
      answer: () => (receiverRand() < CALLBACK_FAIL_SHARE ? 500 : 200),
    }),
  );
  const slots = [
    new ProductSlot({
      repo: product,
      logDir,
      name: 'sched-a',
      role: 'scheduler',
      env: { ...env, ROLES: 'api,scheduler' },
    }),
    ...(latencyMode
      ? []
      : [
          new ProductSlot({
            repo: product,
            logDir,
            name: 'sched-b',
            role: 'scheduler',
            env: { ...env, ROLES: 'scheduler' },
          }),
        ]),
    ...Array.from(
      { length: args.executors },
      (_, i) =>
        new ProductSlot({
          repo: product,
          logDir,
          name: `exec-${i + 1}`,
          role: 'executor',
          env: { ...env, ROLES: 'executor' },
        }),
    ),
  ];
  const ctx = { product, db, redis, namespace, env, slots, receiver, callbacks, logDir, appId: null };
  let code = 1;
  const stopAll = () => Promise.all(slots.map((s) => s.kill()));
  for (const sig of ['SIGINT', 'SIGTERM'])
    process.once(sig, async () => {
      log(`${sig}: stopping the processes`);
      await stopAll();
      process.exit(130);
    });
  try {
    log(
      `seed ${args.seed}; ${latencyMode ? `kill-latency ${args['kill-latency']}` : `executors ${args.executors}, jobs ${args.jobs}, tasks ${args.tasks}, duration ${args.duration} s, kill every ~${args['kill-every']} s`}`,
    );
    code = latencyMode
      ? await runKillLatency(ctx, { ...args, rand, between, log, apiClient, waitFor })
      : await runChaos(ctx);
  } catch (err) {
    console.log(`chaos: ERROR ${err.message.split('\n')[0]} seed=${args.seed}`);
    log(err.stack ?? err.message);
    code = 2;
  } finally {
    await stopAll();
    await receiver.close();
    await callbacks.close();
    if (code === 0 && !args.keep) {
      await cleanup(db, redis, namespace, ctx.appId).catch((err) => log(`cleanup failed: ${err.message}`));
      rmSync(logDir, { recursive: true, force: true });
    } else {
      log(`kept namespace ${namespace} and the process logs in ${logDir}`);
    }
    await db.end();
    redis.disconnect();
  }
  process.exit(code);
}

await main();
