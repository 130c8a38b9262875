// Callback benchmark of Tickwheel on the real MariaDB + Redis.  Run: npm run bench:callbacks [-- flags]
// One product process with ROLES=api,scheduler (it runs the callback sender) and one executor (ROLES=executor),
// a fresh namespace and API client per case; N `noop` tasks submitted in batches, each with a callbackUrl on
// one of ten loopback receivers (task i → receiver i % 10). Case `live`: all ten answer 200 at once. Case
// `dead`: receiver 0 accepts connections and never answers (a dead host). Figures, from the receivers' clocks:
// deliveries per second and the final-state → delivery latency (the payload's finishedAt → arrival) of the
// live receivers' deliveries, p50/p99; the `dead` case is judged by how far it moves the live ones. See
// bench/README.md "Callback benchmark".
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import mysql from 'mysql2/promise';
import { Redis } from 'ioredis';
import { cleanupCase, createApiClient } from './lib/dispatch-db.mjs';
import { freePort, prepareProduct, startProduct } from './lib/proc.mjs';
import { distribution, fmt, parseBenchArgs, printTable } from './lib/stats.mjs';
import { submitBatch } from './lib/submit.mjs';
import { startCallbackReceiver } from './lib/callback-receiver.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const HELP = `npm run bench:callbacks -- [--n 10000] [--rate 0] [--receivers 10] [--cases live,dead] [--batch-size 1000]
  [--timeout 300] [--env K=V,K=V] [--source auto|tree|head|dist] [--json] [--keep]
  [--db mysql://root@127.0.0.1:3306/test] [--redis redis://127.0.0.1:6379]`;
const args = parseBenchArgs(
  {
    n: 10000,
    rate: 0,
    receivers: 10,
    cases: 'live,dead',
    'batch-size': 1000,
    timeout: 300,
    env: '',
  },
  process.argv.slice(2),
  HELP,
);
const log = (s) => (args.json ? process.stderr : process.stdout).write(`${s}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const NODE_PREFIX = `benchc-${process.pid}-`;

/** Runs one case and returns its figures. */
async function runCase(kind, product, pool, redis) {
  const hex = randomBytes(4).toString('hex');
  const namespace = `benchc-${kind}-${hex}`;
  const appId = `benchc-${hex}`;
  const procs = [];
  const receivers = [];
  const extra = Object.fromEntries(
    args.env
      .split(',')
      .filter(Boolean)
      .map((kv) => kv.split(/=(.*)/s).slice(0, 2)),
  );
  const port = await freePort();
  const env = {
    DB_URL: args.db,
    REDIS_URL: args.redis,
    TICKWHEEL_SECRET_KEY: randomBytes(32).toString('hex'),
    TICKWHEEL_NAMESPACE: namespace,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    EGRESS_ALLOW: '*,127.0.0.1', // the receivers are on loopback, which the default policy refuses
    ...extra,
  };
  const pace = args.rate > 0 ? `${args.rate} tasks/s` : 'all at once';
  log(
    `\n== case ${kind}: ${args.n} tasks (${pace}), ${args.receivers} receivers${kind === 'dead' ? ' (receiver 0 dead)' : ''}`,
  );
  try {
    procs.push(
      await startProduct(product, {
        ...env,
        ROLES: 'api,scheduler',
        PORT: String(port),
        NODE_NAME: `${NODE_PREFIX}api`,
      }),
    );
    procs.push(await startProduct(product, { ...env, ROLES: 'executor', PORT: '0', NODE_NAME: `${NODE_PREFIX}x` }));
    const { client } = await createApiClient(product, env, appId, `http://127.0.0.1:${port}`);
    const { verifyCallback } = await import(
      pathToFileURL(join(dirname(product.mainJs), 'client/tickwheel-client.js')).href
    );
    const secret = client.opts.secret;
    for (let i = 0; i < args.receivers; i++)
      receivers.push(
        await startCallbackReceiver({
          verify: (h, raw) => verifyCallback(h, raw, secret),
          blackHole: kind === 'dead' && i === 0,
        }),
      );
    const tasks = Array.from({ length: args.n }, (_, i) => ({
      requestId: `c-${i}`,
      handler: 'noop',
      callbackUrl: `${receivers[i % args.receivers].url}/cb`,
    }));
    const liveShare = receivers.filter((_, i) => !(kind === 'dead' && i === 0));
    const liveExpected = tasks.filter((_, i) => !(kind === 'dead' && i % args.receivers === 0)).length;
    const t0 = Date.now();
    const sub = { accepted: 0, refused: [], requestMs: [] };
    // --rate 0: everything at once (the sender's throughput); --rate R: R tasks/s in batches of R/10, below the
    // sender's pace, so the latency is the sender's own delay, not a backlog's.
    const chunk = args.rate > 0 ? Math.max(1, Math.round(args.rate / 10)) : args.n;
    for (let i = 0; i < args.n; i += chunk) {
      const due = t0 + (i / (args.rate || Infinity)) * 1000;
      if (due > Date.now()) await sleep(due - Date.now());
      const part = await submitBatch(client, tasks.slice(i, i + chunk), args['batch-size'], 1);
      sub.accepted += part.accepted;
      sub.refused.push(...part.refused);
      sub.requestMs.push(...part.requestMs);
    }
    if (sub.accepted !== args.n) throw new Error(`${sub.refused.length} refused: ${JSON.stringify(sub.refused[0])}`);
    const end = t0 + args.timeout * 1000;
    const count = () =>
      liveShare.reduce((s, r) => s + new Set(r.log.filter((d) => d.valid).map((d) => d.deliveryId)).size, 0);
    while (count() < liveExpected && Date.now() < end) await sleep(200);
    const tEnd = Date.now();
    const got = liveShare.flatMap((r) => r.log.filter((d) => d.valid));
    const first = new Map();
    for (const d of got) if (!first.has(d.deliveryId)) first.set(d.deliveryId, d);
    const lat = distribution([...first.values()].map((d) => d.at - d.finishedAt));
    const lastAt = Math.max(...[...first.values()].map((d) => d.at));
    const [[states]] = await pool.query(
      `SELECT SUM(state = 'DELIVERED') AS delivered, SUM(state IN ('PENDING','RETRYING')) AS waiting,
              SUM(state = 'CALLBACK_FAILED') AS failed FROM callback_delivery WHERE app_id = ?`,
      [appId],
    );
    const [hosts] = await pool.query('SELECT host, down_since FROM callback_host WHERE namespace = ?', [namespace]);
    return {
      kind,
      n: args.n,
      liveExpected,
      liveDelivered: first.size,
      duplicates: got.length - first.size,
      invalid: receivers.reduce((s, r) => s + r.log.filter((d) => !d.valid).length, 0),
      submitS: sub.requestMs.reduce((a, b) => a + b, 0) / 1000,
      wallS: (lastAt - t0) / 1000,
      perSec: first.size / ((lastAt - t0) / 1000),
      latencyMs: lat,
      rows: {
        delivered: Number(states.delivered ?? 0),
        waiting: Number(states.waiting ?? 0),
        failed: Number(states.failed ?? 0),
      },
      hostsDown: hosts.filter((h) => h.down_since !== null).length,
      timedOut: tEnd >= end,
    };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await Promise.all(receivers.map((r) => r.close()));
    if (!args.keep) {
      await pool.query('DELETE FROM callback_delivery WHERE app_id = ?', [appId]);
      await pool.query('DELETE FROM callback_host WHERE namespace = ?', [namespace]);
      await cleanupCase(pool, redis, { namespace, appId, nodePrefix: NODE_PREFIX, since: Date.now() - 3_600_000 });
    }
  }
}

const product = prepareProduct(REPO, args.source, log);
log(`product: ${product.source}`);
const pool = mysql.createPool({ uri: args.db, connectionLimit: 4 });
const redis = new Redis(args.redis);
const results = [];
try {
  for (const kind of args.cases.split(',').filter(Boolean)) results.push(await runCase(kind, product, pool, redis));
} finally {
  await pool.end();
  redis.disconnect();
}
if (args.json) console.log(JSON.stringify({ product: product.source, results }, null, 2));
printTable(
  results.map((r) => ({
    case: r.kind,
    'live delivered': `${r.liveDelivered}/${r.liveExpected}${r.timedOut ? ' (timed out)' : ''}`,
    'deliveries/s': fmt(r.perSec),
    'latency p50 ms': fmt(r.latencyMs.p50),
    'p99 ms': fmt(r.latencyMs.p99),
    'max ms': fmt(r.latencyMs.max),
    'dup seen': r.duplicates,
    'rows waiting': r.rows.waiting,
    'hosts down': r.hostsDown,
  })),
  [
    'case',
    'live delivered',
    'deliveries/s',
    'latency p50 ms',
    'p99 ms',
    'max ms',
    'dup seen',
    'rows waiting',
    'hosts down',
  ],
  log,
);
const live = results.find((r) => r.kind === 'live');
const dead = results.find((r) => r.kind === 'dead');
if (live && dead)
  log(
    `dead receiver's effect on the live ones: p50 ×${fmt(dead.latencyMs.p50 / live.latencyMs.p50, 2)}, ` +
      `p99 ×${fmt(dead.latencyMs.p99 / live.latencyMs.p99, 2)}, deliveries/s ×${fmt(dead.perSec / live.perSec, 2)}`,
  );
