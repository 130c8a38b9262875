// App worker vs trusted executor (issue 22): no-op `bench.echo` tasks through ONE app worker (the built SDK,
// `tickwheel/worker`) or ONE trusted executor (the built `tickwheel/executor` entry with a tiny Nest module), same
// concurrency, the rounds interleaved (executor, worker, executor, worker, ...) in one sitting. Each case: a fresh
// namespace and app (with the `worker` scope) on the cluster shape (one ROLES=api,scheduler process, MariaDB +
// Redis), one node of the path under test, a warm-up, then N tasks in batches (tasks/s, CPU per 1,000 tasks) and a
// paced phase of single submits with no backlog (start latency). Figures from the rows. Run: npm run bench:worker
// [-- flags]; see bench/README.md.
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  cleanUpOnSignal,
  coresBetween,
  cpuSnapshot,
  endCase,
  envPairs,
  removeProcFiles,
  serverCounters,
  settle,
  startCluster,
  warmUp,
  withServers,
} from './lib/cluster.mjs';
import { summariseProfile } from './lib/cpuprof.mjs';
import { perTask, waitFinished } from './lib/dispatch-db.mjs';
import { loadNow, prepareProduct, serverPids, startProduct } from './lib/proc.mjs';
import { parseBenchArgs } from './lib/stats.mjs';
import { submitAtRate, submitBatch } from './lib/submit.mjs';
import { analyzeEcho, printProfiles, printWorkerReport, readEchoTasks, summarise } from './lib/worker-analyze.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const ECHO_NODE = join(REPO, 'bench/lib/echo-node.mjs');
const HANDLER = 'bench.echo';
/** The app's scopes: create-app's defaults and `worker` (docs/workers.md "Tenancy"), the same in both cases. */
const SCOPES = ['tasks:read', 'tasks:write', 'jobs:read', 'jobs:write', 'nodes:read', 'worker'];
const HELP = `npm run bench:worker -- [--rounds 3] [--n 5000] [--concurrency 16] [--batch-size 1000] [--lat-n 400]
  [--lat-rate 20] [--warmup 500] [--quiet-wait 10] [--stall 60] [--timeout 600] [--poll-ms 100] [--order executor,worker]
  [--env K=V,...] [--exec-env K=V,...] [--cpu-prof] [--source auto|tree|head|dist] [--json] [--keep]
  [--db mysql://root@127.0.0.1:3306/test] [--redis redis://127.0.0.1:6379]`;
const args = parseBenchArgs(
  {
    rounds: 3,
    n: 5000,
    concurrency: 16,
    'batch-size': 1000,
    'lat-n': 400,
    'lat-rate': 20,
    warmup: 500,
    'quiet-wait': 10,
    stall: 60,
    timeout: 600,
    'poll-ms': 100,
    order: 'executor,worker',
    env: '',
    'exec-env': '',
    'cpu-prof': false,
  },
  process.argv.slice(2),
  HELP,
);
const ORDER = args.order.split(',').filter(Boolean);
for (const k of ORDER) if (k !== 'executor' && k !== 'worker') throw new Error(`--order: '${k}' (executor, worker)`);
/** Progress goes to stderr when --json owns stdout. */
const log = (s) => (args.json ? process.stderr : process.stdout).write(`${s}\n`);
const NODE_PREFIX = `benchw-${process.pid}-`;
const echoTask = (requestId) => ({ requestId, handler: HANDLER });

/** The case in progress, so Ctrl-C can stop its processes and delete its rows. */
let active = null;
cleanUpOnSignal(() => active, args.keep);

/**
 * Starts the node of the path under test. The executor: the cluster's settings (a trusted node), EXECUTOR_CONCURRENCY
 * and EXECUTOR_APP_SHARE=1 (one app may hold every slot, as the worker's own node does; the default 0.875 keeps 2 of
 * 16 for other apps), then --exec-env. The worker: the api's URL, the app's credentials and WORKER_CONCURRENCY only.
 */
function startNode(kind, product, env, target, profDir) {
  const node = { mainJs: ECHO_NODE, cwd: product.cwd };
  const nodeArgs = profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [];
  const dist = join(dirname(product.mainJs));
  const c = String(args.concurrency);
  if (kind === 'executor')
    return startProduct(
      node,
      {
        ...env,
        ROLES: 'executor',
        PORT: '0',
        NODE_NAME: `${NODE_PREFIX}1`,
        EXECUTOR_CONCURRENCY: c,
        EXECUTOR_APP_SHARE: '1',
        ...envPairs(args['exec-env']),
        BENCH_ECHO_ROLE: kind,
        BENCH_DIST: dist,
      },
      nodeArgs,
    );
  return startProduct(
    node,
    {
      TICKWHEEL_URL: target.baseUrl,
      TICKWHEEL_APP_ID: target.appId,
      TICKWHEEL_SECRET: target.secret,
      WORKER_CONCURRENCY: c,
      BENCH_ECHO_ROLE: kind,
      BENCH_DIST: dist,
    },
    nodeArgs,
  );
}

/** Waits until GET /api/nodes lists a live node advertising bench.echo; returns its id. */
async function waitEcho(client, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const r = await client.request('GET', `/api/nodes?handler=${HANDLER}`).catch(() => null);
    const live = r?.status === 200 ? r.body.items.filter((n) => n.handlers?.includes(HANDLER)) : [];
    if (live.length) return live[0].nodeId;
    if (Date.now() > end) throw new Error(`no node advertises ${HANDLER}: ${JSON.stringify(r?.body).slice(0, 300)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** Waits until every task submitted since `since` finished; says so when some did not. */
async function drain(pool, appId, since) {
  const done = await waitFinished(pool, appId, since, {
    everyMs: args['poll-ms'],
    stallS: args.stall,
    timeoutS: args.timeout,
  });
  if (!done.done) log(`   WARNING: ${done.left} tasks still unfinished`);
  return done;
}

/** One case: the cluster, one node of `kind`, warm-up, the batch phase, the paced phase; returns its figures. */
async function runCase(round, kind, product, pool, redis, secretKey) {
  const hex = randomBytes(4).toString('hex');
  const namespace = `benchw-${kind.slice(0, 4)}-${hex}`;
  const appId = `benchw-${hex}`;
  const since = Date.now();
  const procs = [];
  active = { namespace, appId, nodePrefix: NODE_PREFIX, since: since - 120_000, procs, pool, redis };
  log(`\n== round ${round}, ${kind}, namespace ${namespace}`);
  const result = { round, kind, namespace, appId, n: args.n };
  const prof = (role) =>
    args['cpu-prof'] ? `/tmp/tickwheel-bench-prof-${process.pid}-${round}-${kind}-${role}` : null;
  try {
    const c = await startCluster(
      product,
      { args, secretKey, namespace, appId, executors: 0, nodePrefix: NODE_PREFIX, scopes: SCOPES, prof },
      procs,
    );
    const node = { ...(await startNode(kind, product, c.env, c.target, prof(kind))), profDir: prof(kind) };
    procs.push(node);
    result.nodeId = await waitEcho(c.client);
    log(`   api,scheduler pid ${c.api.pid} on :${c.port}; ${kind} pid ${node.pid} (${result.nodeId})`);

    if (args.warmup > 0) {
      const warm = Array.from({ length: args.warmup }, (_, i) => echoTask(`warm-${i}`));
      result.warmupS = await warmUp(pool, appId, since, warm, (t) => submitBatch(c.client, t, args['batch-size'], 1));
      log(`   warm-up: ${args.warmup} tasks in ${result.warmupS.toFixed(1)} s`);
    }

    const servers = serverPids();
    result.quiet = await settle([c.api, node], servers, args['quiet-wait'], log);
    const tasks = Array.from({ length: args.n }, (_, i) => echoTask(`r-${i}`));
    result.loadStart = loadNow();
    const counters0 = await serverCounters(pool, redis);
    const cpu0 = cpuSnapshot(c.api, [node], servers);
    const t0 = Date.now();
    const sub = await submitBatch(c.client, tasks, args['batch-size'], 1);
    result.submitMs = Date.now() - t0;
    result.refused = sub.refused.length;
    result.finished = await drain(pool, appId, t0);
    const cpu1 = cpuSnapshot(c.api, [node], servers);
    result.cores = coresBetween(cpu0, cpu1, args.n);
    result.perTask = perTask(counters0, await serverCounters(pool, redis), args.n, result.finished.polls + 2);
    result.windowMs = cpu1.t - cpu0.t;

    const paced = Array.from({ length: args['lat-n'] }, (_, i) => echoTask(`p-${i}`));
    const t1 = Date.now();
    const lat = await submitAtRate(c.target, paced, args['lat-rate']);
    result.refused += lat.refused.length;
    result.latFinished = await drain(pool, appId, t1);
    result.loadEnd = loadNow();

    const stopped = [];
    for (const p of [node, c.api]) {
      await p.stop();
      stopped.push(Date.now());
    }
    if (args['cpu-prof'])
      result.cpuProfile = {
        node: summariseProfile(node.profDir, cpu0.t, cpu1.t, stopped[0], 20),
        api: summariseProfile(c.api.profDir, cpu0.t, cpu1.t, stopped[1], 20),
      };
    result.productWarnLines = procs.reduce((s, p) => s + p.stats.warnLines, 0);
    result.productTail = procs.flatMap((p) => p.tail.slice(-2));
    const rows = await readEchoTasks(pool, appId);
    result.tput = analyzeEcho(
      rows,
      tasks.map((t) => t.requestId),
    );
    result.lat = analyzeEcho(
      rows,
      paced.map((t) => t.requestId),
    );
    log(
      `   ${Math.round(result.tput.tasksPerSec)} tasks/s; api / ${kind} CPU s per 1,000 ${result.cores.apiCpuSPer1000.toFixed(2)} / ` +
        `${result.cores.executorsCpuSPer1000.toFixed(2)}; paced start p50 ${result.lat.start.p50} ms p99 ${result.lat.start.p99} ms; ` +
        `lost ${result.tput.lost + result.lat.lost}, doubled ${result.tput.doubled + result.lat.doubled}, refused ${result.refused}`,
    );
    return result;
  } finally {
    for (const p of procs) await p.stop();
    removeProcFiles(procs);
    await endCase(active, args.keep, log);
    if (!args.keep) await pool.query('DELETE FROM executor_node WHERE node_id LIKE ?', [`w-${appId}-%`]);
    active = null;
  }
}

async function main() {
  const report = { startedAt: new Date().toISOString(), node: process.version, args, results: [] };
  const product = prepareProduct(REPO, args.source, log);
  report.product = product.source;
  report.loadAtStart = loadNow().uptime;
  await withServers(args, report, log, async (pool, redis, secretKey) => {
    for (let round = 1; round <= args.rounds; round++)
      for (const kind of ORDER) report.results.push(await runCase(round, kind, product, pool, redis, secretKey));
  });
  report.finishedAt = new Date().toISOString();
  report.loadAtEnd = loadNow().uptime;
  report.summary = summarise(report.results);
  printWorkerReport(report, log);
  printProfiles(report, log);
  log(`load: ${report.loadAtStart} (start); ${report.loadAtEnd} (end)`);
  if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

main().catch((err) => {
  process.stderr.write(`bench:worker failed: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
