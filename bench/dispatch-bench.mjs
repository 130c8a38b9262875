// Dispatch (throughput) benchmark of Tickwheel on the real MariaDB + Redis.  Run: npm run bench:dispatch [-- flags]
// The clustered shape: one product process with ROLES=api,scheduler and E executor processes (ROLES=executor),
// a fresh namespace and API client per case; N tasks with the built-in `noop` handler, submitted either one
// signed POST /api/tasks each (a bounded number in flight, or open loop at --rate requests a second, timing
// each answer) or through POST /api/tasks/batch (1,000 per request). Figures come from the rows in
// job_instance. See bench/README.md.
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeTasks } from './lib/dispatch-analyze.mjs';
import { perTask, readTasks, waitFinished } from './lib/dispatch-db.mjs';
import {
  printDispatchPeers,
  printDispatchProfiles,
  printDispatchResults,
  printSqlTraces,
  rateLine,
  ratios,
} from './lib/dispatch-report.mjs';
import {
  cleanUpOnSignal,
  coresBetween,
  cpuSnapshot,
  endCase,
  removeProcFiles,
  serverCounters,
  settle,
  sqlSnapshots,
  sqlTraceSince,
  startCluster,
  warmUp,
  withServers,
} from './lib/cluster.mjs';
import { loadNow, prepareProduct, rssMb, runPeerScript, serverPids } from './lib/proc.mjs';
import { summariseProfile } from './lib/cpuprof.mjs';
import { parseBenchArgs } from './lib/stats.mjs';
import { submitAtRate, submitBatch, submitSingle, submitSingleCheap } from './lib/submit.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const HELP = `npm run bench:dispatch -- [--n 20000] [--executors 1,2,4] [--modes single,batch] [--in-flight 50] [--rate 0] [--client tw|cheap]
  [--batch-size 1000] [--batch-in-flight 1] [--warmup 500] [--quiet-wait 15] [--stall 60] [--timeout 900] [--poll-ms 200]
  [--env K=V,K=V] [--source auto|tree|head|dist] [--json] [--keep] [--cpu-prof] [--sql-trace] [--progress [only]]
  [--with-peers] [--peers-only] [--peer-runs 1] [--peer-concurrency 10,100] [--peer-topologies inproc,2proc] [--pgboss true|false]
  [--db mysql://root@127.0.0.1:3306/test] [--redis redis://127.0.0.1:6379]`;
const args = parseBenchArgs(
  {
    n: 20000,
    executors: [1, 2, 4],
    modes: 'single,batch',
    'in-flight': 50,
    rate: 0,
    client: 'tw',
    'batch-size': 1000,
    'batch-in-flight': 1,
    warmup: 500,
    'quiet-wait': 15,
    stall: 60,
    timeout: 900,
    'poll-ms': 200,
    env: '',
    'cpu-prof': false,
    'sql-trace': false,
    progress: '',
    'with-peers': false,
    'peers-only': false,
    'peer-runs': 1,
    'peer-concurrency': '10,100',
    'peer-topologies': 'inproc,2proc',
    pgboss: true,
  },
  process.argv.slice(2),
  HELP,
);
const MODES = args.modes.split(',').filter(Boolean);
/**
 * --progress: each noop task reports progress once and stores one checkpoint (noop params, bench/README.md);
 * --progress only: progress alone. The plain run's tasks have no params.
 */
const NOOP_PARAMS = { '': undefined, true: { progress: true, checkpoint: true }, only: { progress: true } }[
  args.progress
];
if (!(args.progress in { '': 1, true: 1, only: 1 })) throw new Error(`--progress: '${args.progress}' (none, or only)`);
const noopTask = (requestId) =>
  NOOP_PARAMS ? { requestId, handler: 'noop', params: NOOP_PARAMS } : { requestId, handler: 'noop' };
for (const m of MODES)
  if (m !== 'single' && m !== 'batch') throw new Error(`--modes: unknown mode '${m}' (single, batch)`);
/** Progress goes to stderr when --json owns stdout. */
const log = (s) => (args.json ? process.stderr : process.stdout).write(`${s}\n`);
if (args.client !== 'tw' && args.client !== 'cheap') throw new Error(`--client: '${args.client}' (tw, cheap)`);
if (!(args.rate >= 0)) throw new Error(`--rate: '${args.rate}' (requests per second; 0 = closed loop)`);
const NODE_PREFIX = `benchd-${process.pid}-`;

/** The case in progress, so Ctrl-C (SIGINT/SIGTERM) can stop its processes and delete its rows. */
let active = null;
cleanUpOnSignal(() => active, args.keep);

/**
 * Submits `tasks` in `mode` and returns what the API answered. `target` (appId, secret, baseUrl) given and
 * --rate set: single submits go open loop at that rate (submitAtRate); with --client cheap, closed loop through the
 * cheap client (submitSingleCheap) instead of TickwheelClient; warm-ups pass none.
 */
function submit(client, mode, tasks, target) {
  if (mode === 'single' && target && args.rate > 0) return submitAtRate(target, tasks, args.rate);
  if (mode === 'single' && target && args.client === 'cheap')
    return submitSingleCheap(target, tasks, args['in-flight']);
  return mode === 'single'
    ? submitSingle(client, tasks, args['in-flight'])
    : submitBatch(client, tasks, args['batch-size'], args['batch-in-flight']);
}

/** Runs one case (E executors, one submit mode) end to end and returns its figures. */
async function runCase(executors, mode, product, pool, redis, secretKey) {
  const hex = randomBytes(4).toString('hex');
  const namespace = `benchd-${executors}x-${mode}-${hex}`;
  const appId = `benchd-${hex}`;
  const since = Date.now();
  const procs = [];
  active = { namespace, appId, nodePrefix: NODE_PREFIX, since: since - 120_000, procs, pool, redis };
  log(`\n== ${executors} executor${executors > 1 ? 's' : ''}, ${mode} submit, namespace ${namespace}`);
  const prof = (role) =>
    args['cpu-prof'] ? `/tmp/tickwheel-bench-prof-${process.pid}-${executors}x-${mode}-${role}` : null;
  const trace = (role) =>
    args['sql-trace'] ? `/tmp/tickwheel-bench-sql-${process.pid}-${executors}x-${mode}-${role}` : null;
  const result = {
    executors,
    mode,
    namespace,
    appId,
    n: args.n,
  };
  try {
    const { api, execs, client, env, port, nodes, bootS, target } = await startCluster(
      product,
      { args, secretKey, namespace, appId, executors, nodePrefix: NODE_PREFIX, prof, trace },
      procs,
    );
    Object.assign(result, { settings: { ...env, TICKWHEEL_SECRET_KEY: '(random)' }, nodes, bootS });
    log(
      `   api,scheduler pid ${api.pid} on :${port}; executors ${execs.map((e) => e.pid).join(', ')} (${result.nodes.join(', ')}); up in ${result.bootS.toFixed(1)} s`,
    );

    if (args.warmup > 0) {
      const warm = Array.from({ length: args.warmup }, (_, i) => noopTask(`warm-${i}`));
      result.warmupS = await warmUp(pool, appId, since, warm, (tasks) => submit(client, mode, tasks));
      log(`   warm-up: ${args.warmup} tasks in ${result.warmupS.toFixed(1)} s`);
    }

    const tasks = Array.from({ length: args.n }, (_, i) => noopTask(`r-${i}`));
    const servers = serverPids();
    result.quiet = await settle(procs, servers, args['quiet-wait'], log);
    const rss0 = { api: rssMb(api.pid), executors: execs.map((e) => rssMb(e.pid)) };
    const counters0 = await serverCounters(pool, redis);
    const sql0 = args['sql-trace'] ? await sqlSnapshots(procs, 1) : null;
    result.loadStart = loadNow();
    const cpu0 = cpuSnapshot(api, execs, servers);
    const t0 = Date.now();
    const sub = await submit(client, mode, tasks, target);
    const tSubmitted = Date.now();
    result.submit = {
      accepted: sub.accepted,
      refused: sub.refused.length,
      refusedSample: sub.refused.slice(0, 5),
      requests: sub.requests,
      ms: tSubmitted - t0,
      perSec: args.n / ((tSubmitted - t0) / 1000),
      requestMs: sub.requestMs,
      rate: sub.rate,
      client: mode === 'single' && (args.rate > 0 || args.client === 'cheap') ? 'cheap' : 'tw',
    };
    log(
      `   submitted ${sub.accepted}/${args.n} in ${(result.submit.ms / 1000).toFixed(1)} s (${Math.round(result.submit.perSec)}/s${sub.refused.length ? `, ${sub.refused.length} REFUSED` : ''}); waiting for the rest...`,
    );
    if (sub.rate) log(`   ${rateLine(sub.rate)}`);
    const done = await waitFinished(pool, appId, t0, {
      everyMs: args['poll-ms'],
      stallS: args.stall,
      timeoutS: args.timeout,
    });
    const cpu1 = cpuSnapshot(api, execs, servers);
    const counters1 = await serverCounters(pool, redis);
    if (sql0) result.sqlTrace = await sqlTraceSince(procs, sql0, args.n);
    result.loadEnd = loadNow();
    result.rss = { api: [rss0.api, rssMb(api.pid)], executors: execs.map((e, i) => [rss0.executors[i], rssMb(e.pid)]) };
    result.finished = done;
    if (!done.done)
      log(
        `   WARNING: ${done.left} tasks still unfinished (${done.at - t0 > args.timeout * 1000 ? 'timeout' : `no progress for ${args.stall} s`})`,
      );
    result.cores = coresBetween(cpu0, cpu1, args.n);
    result.windowMs = cpu1.t - cpu0.t;
    result.perTask = perTask(counters0, counters1, args.n, done.polls + 2);
    result.t0 = t0;
    result.submittedAt = tSubmitted;

    const t = Date.now();
    const stops = [];
    for (const p of [...execs, api]) {
      const code = await p.stop();
      stops.push({ pid: p.pid, code, at: Date.now() });
    }
    result.stopS = (Date.now() - t) / 1000;
    result.exitCodes = stops.map((s) => s.code);
    result.productWarnLines = procs.reduce((s, p) => s + p.stats.warnLines, 0);
    result.productTail = procs.flatMap((p) => p.tail.slice(-2));
    if (args['cpu-prof']) {
      const end = done.at;
      result.cpuProfile = {
        api: summariseProfile(api.profDir, t0, end, stops[stops.length - 1].at, 20),
        executors: execs.map((e, i) => summariseProfile(e.profDir, t0, end, stops[i].at, 20)),
      };
    }
    const rows = await readTasks(pool, appId);
    Object.assign(result, analyzeTasks({ rows, requestIds: tasks.map((x) => x.requestId), t0 }));
    result.drainMs = result.lastFinish - tSubmitted;
    log(
      `   ${Math.round(result.tasksPerSec)} tasks/s; submit-to-start p50 ${result.latency.p50} ms p99 ${result.latency.p99} ms; lost ${result.lost}, doubled ${result.doubled}`,
    );
    return result;
  } finally {
    for (const p of procs) await p.stop();
    removeProcFiles(procs);
    await endCase(active, args.keep, log);
    active = null;
  }
}

/** Runs bench/peers-dispatch.sh (BullMQ add/addBulk, pg-boss send/insert) and returns its summary JSON. */
async function runPeers() {
  return runPeerScript(
    REPO,
    'bench/peers-dispatch.sh',
    [
      '--n',
      String(args.n),
      '--runs',
      String(args['peer-runs']),
      '--concurrency',
      args['peer-concurrency'],
      '--topologies',
      args['peer-topologies'],
      '--pgboss',
      String(args.pgboss),
    ],
    { toStderr: args.json, log },
  );
}

async function main() {
  const report = { startedAt: new Date().toISOString(), node: process.version, args, results: [] };
  if (!args['peers-only']) {
    const product = prepareProduct(REPO, args.source, log);
    report.product = product.source;
    await withServers(args, report, log, async (pool, redis, secretKey) => {
      for (const e of args.executors)
        for (const mode of MODES) report.results.push(await runCase(e, mode, product, pool, redis, secretKey));
    });
  }
  if (args['with-peers'] || args['peers-only']) report.peers = await runPeers();
  if (report.peers) report.ratios = ratios(report);
  report.finishedAt = new Date().toISOString();
  report.loadAtEnd = loadNow().uptime;
  if (report.results.length) printDispatchResults(report, log);
  printDispatchProfiles(report, log);
  printSqlTraces(report, log);
  if (report.peers) printDispatchPeers(report, log);
  if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((err) => {
  process.stderr.write(`bench:dispatch failed: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
