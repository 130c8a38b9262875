// Delayed-task precision of Tickwheel on the real MariaDB + Redis.  Run: npm run bench:delayed [-- flags]
// The clustered shape of bench:dispatch (one ROLES=api,scheduler process, E executor processes), a fresh
// namespace and API client per case. `spread`: N noop tasks due uniformly over 10-20 s after the submit starts
// (as ../shared/peers/bullmq-delayed.js does for BullMQ); `burst`: 200 tasks due in the same millisecond, each a
// 50 ms noop. Lateness = started_at − due_at from job_instance. See bench/README.md.
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeTasks } from './lib/dispatch-analyze.mjs';
import { perTask, readTasks, waitFinished } from './lib/dispatch-db.mjs';
import {
  cleanUpOnSignal,
  coresBetween,
  cpuSnapshot,
  endCase,
  removeProcFiles,
  envPairs,
  serverCounters,
  settle,
  sqlSnapshots,
  sqlTraceSince,
  startCluster,
  warmUp,
  withServers,
} from './lib/cluster.mjs';
import { beyondCapacity, latenessBySecond, latenessOf } from './lib/delayed-analyze.mjs';
import { printDelayedPeers, printDelayedResults } from './lib/delayed-report.mjs';
import { printSqlTraces } from './lib/dispatch-report.mjs';
import { loadNow, prepareProduct, runPeerScript, serverPids } from './lib/proc.mjs';
import { parseBenchArgs } from './lib/stats.mjs';
import { submitBatch } from './lib/submit.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const HELP = `npm run bench:delayed -- [--cases spread,burst] [--n 10000] [--executors 2] [--min-delay 10000]
  [--max-delay 20000] [--batch-size 1000] [--burst-n 200] [--burst-sleep-ms 50] [--burst-delay 3000] [--warmup 500]
  [--quiet-wait 15] [--stall 60] [--timeout 300] [--poll-ms 200] [--env K=V,K=V] [--source auto|tree|head|dist]
  [--json] [--keep] [--sql-trace] [--with-peers] [--peer-runs 1] [--db mysql://root@127.0.0.1:3306/test] [--redis redis://127.0.0.1:6379]`;
const args = parseBenchArgs(
  {
    cases: 'spread,burst',
    n: 10000,
    executors: 2,
    'min-delay': 10000,
    'max-delay': 20000,
    'batch-size': 1000,
    'burst-n': 200,
    'burst-sleep-ms': 50,
    'burst-delay': 3000,
    warmup: 500,
    'quiet-wait': 15,
    stall: 60,
    timeout: 300,
    'poll-ms': 200,
    env: '',
    'sql-trace': false,
    'with-peers': false,
    'peer-runs': 1,
  },
  process.argv.slice(2),
  HELP,
);
const CASES = args.cases.split(',').filter(Boolean);
for (const c of CASES)
  if (c !== 'spread' && c !== 'burst') throw new Error(`--cases: unknown case '${c}' (spread, burst)`);
/** Progress goes to stderr when --json owns stdout. */
const log = (s) => (args.json ? process.stderr : process.stdout).write(`${s}\n`);
const NODE_PREFIX = `benchl-${process.pid}-`;
const EXTRA_ENV = envPairs(args.env);
/** Handler slots per executor: the product's default unless --env sets EXECUTOR_CONCURRENCY. */
const CONCURRENCY = Number(EXTRA_ENV.EXECUTOR_CONCURRENCY ?? 16);

/** The case in progress, so Ctrl-C (SIGINT/SIGTERM) can stop its processes and delete its rows. */
let active = null;
cleanUpOnSignal(() => active, args.keep);

/**
 * `spread`: submits N tasks in batches of --batch-size, each chunk built just before its request (as
 * bullmq-delayed.js builds each addBulk), due = submit start + min-delay + U[0, max-delay − min-delay).
 * @returns {Promise<{requestIds: string[], intended: Map<string, number>, accepted: number, refused: object[], requests: number}>}
 */
async function submitSpread(client) {
  const start = Date.now();
  const span = args['max-delay'] - args['min-delay'];
  const intended = new Map();
  const out = { requestIds: [], intended, accepted: 0, refused: [], requests: 0 };
  for (let i = 0; i < args.n; i += args['batch-size']) {
    const chunk = [];
    for (let k = i; k < Math.min(args.n, i + args['batch-size']); k++) {
      const due = start + args['min-delay'] + Math.random() * span;
      const requestId = `d-${k}`;
      intended.set(requestId, due);
      out.requestIds.push(requestId);
      chunk.push({ requestId, handler: 'noop', delayMs: Math.max(0, Math.round(due - Date.now())) });
    }
    const r = await submitBatch(client, chunk, chunk.length, 1);
    out.accepted += r.accepted;
    out.refused.push(...r.refused);
    out.requests += r.requests;
  }
  return out;
}

/** `burst`: --burst-n tasks in one batch request, all with the same delayMs (so the same due_at). */
async function submitBurst(client) {
  const tasks = Array.from({ length: args['burst-n'] }, (_, k) => ({
    requestId: `b-${k}`,
    handler: 'noop',
    params: { sleepMs: args['burst-sleep-ms'] },
    delayMs: args['burst-delay'],
  }));
  const r = await submitBatch(client, tasks, tasks.length, 1);
  return { ...r, requestIds: tasks.map((t) => t.requestId), intended: null };
}

/** Runs one case (spread or burst) on a fresh cluster and returns its figures. */
async function runCase(kind, product, pool, redis, secretKey) {
  const hex = randomBytes(4).toString('hex');
  const namespace = `benchl-${kind}-${hex}`;
  const appId = `benchl-${hex}`;
  const since = Date.now();
  const procs = [];
  active = { namespace, appId, nodePrefix: NODE_PREFIX, since: since - 120_000, procs, pool, redis };
  const n = kind === 'spread' ? args.n : args['burst-n'];
  log(`\n== ${kind}: ${n} delayed tasks, ${args.executors} executor(s), namespace ${namespace}`);
  const trace = (role) => (args['sql-trace'] ? `/tmp/tickwheel-bench-sql-${process.pid}-${kind}-${role}` : null);
  const result = {
    kind,
    mode: kind,
    n,
    executors: args.executors,
    slots: args.executors * CONCURRENCY,
    namespace,
    appId,
  };
  try {
    const { api, execs, client, port, bootS } = await startCluster(
      product,
      { args, secretKey, namespace, appId, executors: args.executors, nodePrefix: NODE_PREFIX, trace },
      procs,
    );
    log(
      `   api,scheduler pid ${api.pid} on :${port}; executors ${execs.map((e) => e.pid).join(', ')}; up in ${bootS.toFixed(1)} s`,
    );
    if (args.warmup > 0) {
      const warm = Array.from({ length: args.warmup }, (_, i) => ({ requestId: `warm-${i}`, handler: 'noop' }));
      const s = await warmUp(pool, appId, since, warm, (tasks) => submitBatch(client, tasks, args['batch-size'], 1));
      log(`   warm-up: ${args.warmup} immediate tasks in ${s.toFixed(1)} s`);
    }
    const servers = serverPids();
    result.quiet = await settle(procs, servers, args['quiet-wait'], log);
    const counters0 = await serverCounters(pool, redis);
    const sql0 = args['sql-trace'] ? await sqlSnapshots(procs, 1) : null;
    result.loadStart = loadNow();
    const cpu0 = cpuSnapshot(api, execs, servers);
    const t0 = Date.now();
    const sub = kind === 'spread' ? await submitSpread(client) : await submitBurst(client);
    result.submit = {
      accepted: sub.accepted,
      refused: sub.refused.length,
      refusedSample: sub.refused.slice(0, 3),
      ms: Date.now() - t0,
    };
    log(
      `   submitted ${sub.accepted}/${n} in ${(result.submit.ms / 1000).toFixed(2)} s${sub.refused.length ? `, ${sub.refused.length} REFUSED` : ''}; waiting until all ran...`,
    );
    const longest = kind === 'spread' ? args['max-delay'] : args['burst-delay'];
    const done = await waitFinished(pool, appId, t0, {
      everyMs: args['poll-ms'],
      stallS: args.stall + longest / 1000,
      timeoutS: args.timeout,
    });
    const cpu1 = cpuSnapshot(api, execs, servers);
    const counters1 = await serverCounters(pool, redis);
    if (sql0) result.sqlTrace = await sqlTraceSince(procs, sql0, n);
    result.loadEnd = loadNow();
    result.finished = done;
    if (!done.done) log(`   WARNING: ${done.left} tasks still unfinished`);
    result.cores = coresBetween(cpu0, cpu1, n);
    result.windowMs = cpu1.t - cpu0.t;
    result.perTask = perTask(counters0, counters1, n, done.polls + 2);
    for (const p of [...execs, api]) await p.stop();
    result.productWarnLines = procs.reduce((s, p) => s + p.stats.warnLines, 0);
    const rows = await readTasks(pool, appId);
    const checks = analyzeTasks({ rows, requestIds: sub.requestIds, t0 });
    for (const k of ['rows', 'statuses', 'missing', 'notSuccess', 'lost', 'doubled', 'ranTwice', 'perNode', 'run'])
      result[k] = checks[k];
    const l = latenessOf(rows, sub.requestIds, sub.intended);
    Object.assign(result, {
      lateness: l.lateness,
      vsIntended: l.vsIntended,
      dueSkew: l.dueSkew,
      distinctDue: l.distinctDue,
    });
    if (kind === 'spread') result.bySecond = latenessBySecond(l.started, t0);
    if (kind === 'burst') Object.assign(result, beyondCapacity(l.started, result.slots, args['burst-sleep-ms']));
    log(
      `   lateness p50 ${l.lateness.p50} ms, p99 ${l.lateness.p99} ms, max ${l.lateness.max} ms; lost ${result.lost}, doubled ${result.doubled}`,
    );
    return result;
  } finally {
    await endCase(active, args.keep, log);
    removeProcFiles(procs);
    active = null;
  }
}

/** BullMQ's delayed-job benchmark with the same N (bench/peers-trigger.sh runs bullmq-delayed.js). */
function runPeers() {
  return runPeerScript(
    REPO,
    'bench/peers-trigger.sh',
    ['--delayed-n', String(args.n), '--runs', String(args['peer-runs']), '--skip-schedulers'],
    { toStderr: args.json, log },
  );
}

async function main() {
  const report = {
    startedAt: new Date().toISOString(),
    node: process.version,
    args,
    concurrency: CONCURRENCY,
    results: [],
  };
  const product = prepareProduct(REPO, args.source, log);
  report.product = product.source;
  await withServers(args, report, log, async (pool, redis, secretKey) => {
    for (const kind of CASES) report.results.push(await runCase(kind, product, pool, redis, secretKey));
  });
  // ours is printed even when the peers fail (the exit code says they did)
  if (args['with-peers']) report.peers = await runPeers().catch((err) => ({ error: err.message }));
  report.finishedAt = new Date().toISOString();
  report.loadAtEnd = loadNow().uptime;
  printDelayedResults(report, log);
  printSqlTraces(report, log);
  if (report.peers?.error) log(`\npeers failed: ${report.peers.error}`);
  else if (report.peers) printDelayedPeers(report, log);
  if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  if (report.peers?.error) process.exitCode = 1;
}

main().catch((err) => {
  process.stderr.write(`bench:delayed failed: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
