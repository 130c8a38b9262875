// Chaos check of Tickwheel (issue 4 point 7, docs/guarantees.md). Run: npm run chaos [-- flags]; see README "Chaos check".
//
// Starts on loopback two scheduler processes (the first also serves the API) and several executor processes
// of the product (node dist/src/main.js) on the real MariaDB and Redis, in a fresh namespace; registers cron
// jobs firing every 1-5 s and submits API tasks (single and batch), all running the built-in `http` handler
// against a receiver in this process that logs every call (the side-effect log; lib/workload.mjs); SIGKILLs
// executors and the leader at random moments (and SIGSTOPs some executors past the offline threshold), restarting
// them (lib/faults.mjs); then stops the schedules, waits for quiescence and judges from MySQL and the log
// (lib/verdict.mjs). Every instance is called back (the app's default registration, some jobs' and tasks' own
// URLs) to a second receiver that checks signatures and fails one answer in ten; the senders run on the
// schedulers the run SIGKILLs, and lib/callback-verdict.mjs judges the deliveries. A known share of the tasks is
// planned to fail; a FINAL_FAILURE notification rule (quietMs 0) sends every failure to a third receiver, and
// lib/notify-verdict.mjs checks each failed instance is named by exactly one delivered message. It prints one
// verdict line and exits 1 when anything is lost, doubled, unfinished or unexplained.
//
// `--kill-latency N` is another mode: with the product's default lease settings, SIGKILL an executor
// running a long task N times and print how long until the task starts again elsewhere (p50/p99).
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { Redis } from 'ioredis';
import { ProductSlot } from './lib/cluster.mjs';
import { startReceiver } from './lib/receiver.mjs';
import { judge } from './lib/verdict.mjs';
import { noneLeft, stopSchedules, unfinished } from './lib/quiesce.mjs';
import { judgeCallbacks } from './lib/callback-verdict.mjs';
import { judgeNotifications, notifyBacklog, notifyRule } from './lib/notify-verdict.mjs';
import { startNotifyReceiver } from './lib/notify-receiver.mjs';
import { startCallbackReceiver } from '../../bench/lib/callback-receiver.mjs';
import { runKillLatency } from './lib/kill-latency.mjs';
import { envPairs } from '../../bench/lib/cluster.mjs';
import { prng, readOptions } from './lib/options.mjs';
import { apiClient, cleanup, persist, snapshotProduct } from './lib/product.mjs';
import { log, waitFor } from './lib/run-util.mjs';
import { injectFaults } from './lib/faults.mjs';
import { createJobs, submitTasks } from './lib/workload.mjs';

const args = readOptions(process.argv.slice(2));
const rand = prng(args.seed);
/** The callback receiver's own stream, so its answers do not shift the run's kills and submits. */
const receiverRand = prng(args.seed + 1);
/** The notification receiver's own stream, for the same reason. */
const notifyRand = prng(args.seed + 2);
/** Share of callback and notification answers that are a 500 (a retry follows). */
const CALLBACK_FAIL_SHARE = 0.1;
const between = (lo, hi) => lo + rand() * (hi - lo);
const extraEnv = envPairs(args.env);

/** The chaos run proper. @returns {Promise<number>} exit code */
async function runChaos(ctx) {
  const { db, redis, namespace, env, slots, receiver, callbacks, notify } = ctx;
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
  notify.verify = callbacks.verify;
  const registered = await persist(
    'register the default callback',
    () => client().registerCallback(`${callbacks.url}/cb/default`),
    Date.now() + 60_000,
  );
  if (registered.status >= 300) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  // Before the load: every planned failure must find the rule (docs/notifications.md "Rules").
  const ruled = await persist(
    'set the notification rule',
    () => client().request('POST', '/api/notifications/rules', notifyRule(notify.url)),
    Date.now() + 60_000,
  );
  if (ruled.status !== 201) throw new Error(`notification rule: ${ruled.status} ${JSON.stringify(ruled.body)}`);
  await Promise.all([...schedulers.slice(1), ...executors].map((s) => s.start()));
  log(
    `cluster up: ${schedulers.length} schedulers, ${executors.length} executors; namespace ${namespace}; logs in ${ctx.logDir}`,
  );

  const o = { ...args, rand, between };
  const jobs = await createJobs(client, o, { receiver, callbacks });
  log(`${jobs.length} cron jobs registered (every 1-5 s)`);

  const t0 = Date.now();
  const faults = injectFaults({ redis, namespace, env, schedulers, executors }, o, t0 + args.duration * 1000);
  const { events } = faults;
  const submits = submitTasks(client, o, { namespace, receiver, callbacks, t0 });
  const { taskIds, ownCallback, failing } = submits;
  await Promise.all([faults.done, submits.done]);
  for (const s of slots) if (!s.alive) await s.start();
  log(
    `chaos over after ${((Date.now() - t0) / 1000).toFixed(0)} s: ${events.kills} kills (${events.executorKills} executors, ${events.leaderKills} leaders), ${events.stalls} stalls; ${taskIds.length} tasks submitted`,
  );

  // Stop the schedules: first let the leader catch up (every fire due so far written), then pause every job.
  const { stopAt, pausedAt } = await stopSchedules({ db, redis, namespace, schedulers, client, jobs });
  log(`schedules stopped (fires up to ${new Date(stopAt).toISOString()} expected); waiting for quiescence`);
  const settleFrom = Date.now();
  const settled = await noneLeft(
    db,
    'every instance to reach a final state',
    ...unfinished(namespace),
    args.settle * 1000,
  );
  const quietMs = Date.now() - settleFrom;
  await Promise.all(executors.map((s) => s.stop()));
  // The schedulers send the callbacks: they stay up until no delivery of the run is due any more.
  const cbFrom = Date.now();
  const cbSettled = await noneLeft(
    db,
    'every callback to be delivered or failed',
    `SELECT COUNT(*) AS c FROM callback_delivery d JOIN job_instance i ON i.id = d.instance_id
      WHERE i.namespace = ? AND d.state IN ('PENDING', 'RETRYING')`,
    [namespace],
    args.settle * 1000,
  );
  const cbQuietMs = Date.now() - cbFrom;
  // The schedulers also evaluate the final events (every NOTIFY_EVAL_MS), close the messages and send them.
  const nfFrom = Date.now();
  const nfSettled = await noneLeft(db, 'every failure to be notified', ...notifyBacklog(namespace), args.settle * 1000);
  const nfQuietMs = Date.now() - nfFrom;
  await Promise.all(schedulers.map((s) => s.stop()));
  const v = await judge(db, { namespace, taskIds, failing, stopAt, pausedAt, log: receiver.log });
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
  const nf = await judgeNotifications(db, { namespace, receipts: notify.log });
  const k = v.counts;
  const q = cb.counts;
  const n = nf.counts;
  const ok = v.ok && cb.ok && nf.ok;
  const line =
    `chaos: ${v.ok ? 'OK' : 'FAIL'} fires=${k.fires} (expected ${k.expectedFires}) tasks=${k.tasks}/${taskIds.length} kills=${events.kills} ` +
    `(executors ${events.executorKills}, leader ${events.leaderKills}) stalls=${events.stalls} reruns=${k.reruns} (explained ${k.explained}) ` +
    `missing=${k.missing} dup=${k.dup} extra=${k.extra} doubleSuccess=${k.doubleSuccess} unfinished=${k.unfinished} failed=${k.failed} ` +
    `untraced=${k.untraced} noEffect=${k.noEffect} effects=${k.effects} failing=${k.failing}/${failing.size} settle=${(quietMs / 1000).toFixed(1)}s${settled ? '' : ' (timed out)'} ` +
    `callbacks=${q.delivered}/${q.expected} cbMissing=${q.cbMissing} cbFailed=${q.cbFailed} cbLost=${q.cbLost} cbSplit=${q.cbSplit} ` +
    `cbBadSig=${q.cbBadSig} cbWrongUrl=${q.cbWrongUrl} cbWrongStatus=${q.cbWrongStatus} cbDupSeen=${q.cbDupSeen} cbRetried=${q.cbRetried} ` +
    `cbSettle=${(cbQuietMs / 1000).toFixed(1)}s${cbSettled ? '' : ' (timed out)'} ` +
    `notified=${n.notified}/${n.expected} nfMessages=${n.messages} nfLost=${n.nfLost} nfDoubled=${n.nfDoubled} ` +
    `nfUndelivered=${n.nfUndelivered} nfStray=${n.nfStray} nfBadSig=${n.nfBadSig} nfUnsampled=${n.nfUnsampled} ` +
    `nfRedelivered=${n.nfRedelivered} nfRetried=${n.nfRetried} ` +
    `nfSettle=${(nfQuietMs / 1000).toFixed(1)}s${nfSettled ? '' : ' (timed out)'} seed=${args.seed}`;
  if (!v.ok) for (const e of v.examples) log(`  ${e}`);
  if (!cb.ok) for (const e of cb.examples) log(`  ${e}`);
  if (!nf.ok) for (const e of nf.examples) log(`  ${e}`);
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
    // The callback receiver fails one answer in ten at random, so three failures in a row happen in most runs and
    // would take its host down (CALLBACK_HOST_DOWN_AFTER, default 3): every waiting callback would then end
    // HOST_DOWN by design, not through a fault. This check proves retries through kills; the fail-fast of a host
    // that is really down has its own tests (test/integration/callback-host-health.int-spec.ts).
    CALLBACK_HOST_DOWN_AFTER: '1000',
    // Notifications: every failure is a message (no hourly cap in the way), short waits, and a sender lease of
    // 3 × 500 ms + 10 s (docs/notifications.md "Sender") that a SIGKILLed scheduler's claims outlive only briefly.
    NOTIFY_MAX_PER_HOUR: '100000',
    NOTIFY_RETRY_DELAYS_MS: '200,500,1000,2000,3000',
    NOTIFY_SMTP_TIMEOUT_MS: '500',
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
  const notify = { verify: () => ({ ok: false, reason: 'no app yet' }) };
  Object.assign(
    notify,
    await startNotifyReceiver({
      verify: (headers, raw) => notify.verify(headers, raw),
      answer: () => (notifyRand() < CALLBACK_FAIL_SHARE ? 500 : 200),
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
  const ctx = { product, db, redis, namespace, env, slots, receiver, callbacks, notify, logDir, appId: null };
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
    await notify.close();
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
