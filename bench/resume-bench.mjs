// Resume benchmark: how much work a SIGKILLed executor costs a checkpointing handler, on the real MariaDB + Redis.
// Run: npm run bench:resume [-- --kills 20]. One api,scheduler process and two executors running
// examples/resumable-export (dist/examples/resumable-export/main.js). Per kill: one export task (--pages pages,
// a checkpoint every --every, --page-ms per page); at a random page the executor running it is SIGKILLed (and
// started again, a new node); the next attempt runs on the other one. From the export's journal (one line per page
// written: page, attempt, time): pages re-run per kill (written again after the kill), and time to resume (kill →
// the next attempt's first page). Each export must end exactly complete with no page written more than twice.
// See bench/README.md "Resume benchmark".
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mysql from 'mysql2/promise';
import { Redis } from 'ioredis';
import { cleanupCase, createApiClient } from './lib/dispatch-db.mjs';
import { freePort, prepareProduct, startProduct } from './lib/proc.mjs';
import { distribution, fmt, parseArgs, printTable } from './lib/stats.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const HELP = `npm run bench:resume -- [--kills 20] [--pages 100] [--every 5] [--page-ms 50] [--lease-ms 2000]
  [--offline-ms 3000] [--source dist|tree|head|auto] [--json] [--db mysql://root@127.0.0.1:3306/test]
  [--redis redis://127.0.0.1:6379]`;
const args = parseArgs(
  {
    kills: 20,
    pages: 100,
    every: 5,
    'page-ms': 50,
    'lease-ms': 2000,
    'offline-ms': 3000,
    source: 'dist',
    json: false,
    help: false,
    db: process.env.BENCH_DB_URL ?? 'mysql://root@127.0.0.1:3306/test',
    redis: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  },
  process.argv.slice(2),
);
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const log = (s) => (args.json ? process.stderr : process.stdout).write(`${s}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The export's journal: one {page, attempt, at} per page written. */
function journal(path) {
  let text;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => /^\d+ \d+ \d+$/.test(l))
    .map((l) => {
      const [page, attempt, at] = l.split(' ').map(Number);
      return { page, attempt, at };
    });
}

async function until(what, fn, timeoutMs = 60_000, everyMs = 10) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** The 10 CSV rows of page `page`, as examples/resumable-export/export-params.ts renders them. */
function renderPage(page) {
  let out = '';
  for (let i = page * 10; i < page * 10 + 10; i++) out += `${i},customer-${i}\n`;
  return out;
}

const product = prepareProduct(REPO, args.source, log);
const exampleJs = join(dirname(product.mainJs), '../examples/resumable-export/main.js');
const hex = randomBytes(4).toString('hex');
const namespace = `benchr-${hex}`;
const appId = `benchr-${hex}`;
const nodePrefix = `benchr-${hex}-`;
const dir = mkdtempSync(join(tmpdir(), 'tw-resume-bench-'));
const since = Date.now();
const port = await freePort();
const env = {
  DB_URL: args.db,
  REDIS_URL: args.redis,
  TICKWHEEL_SECRET_KEY: randomBytes(32).toString('hex'),
  TICKWHEEL_NAMESPACE: namespace,
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  HEARTBEAT_INTERVAL_MS: '500',
  NODE_OFFLINE_AFTER_MS: String(args['offline-ms']),
  RECONCILE_INTERVAL_MS: '1000',
};
const executorEnv = (name) => ({
  ...env,
  ROLES: 'executor',
  PORT: '0',
  NODE_NAME: `${nodePrefix}${name}`,
  LEASE_MS: String(args['lease-ms']),
  LEASE_RENEW_MS: String(Math.max(100, Math.floor(args['lease-ms'] / 4))),
  EXPORT_DIR: dir,
});
const pool = mysql.createPool({ uri: args.db, connectionLimit: 2 });
const redis = new Redis(args.redis);
const procs = new Map();
const startExecutor = async (name) =>
  procs.set(name, await startProduct({ mainJs: exampleJs, cwd: product.cwd }, executorEnv(name)));
const rowOf = async (requestId) =>
  (
    await pool.query('SELECT status, attempt, node_id FROM job_instance WHERE namespace = ? AND request_id = ?', [
      namespace,
      requestId,
    ])
  )[0][0];

log(`product: ${product.source}; ${args.kills} kills, ${args.pages} pages, checkpoint every ${args.every}`);
const results = [];
const problems = [];
try {
  const api = await startProduct(product, {
    ...env,
    ROLES: 'api,scheduler',
    PORT: String(port),
    NODE_NAME: `${nodePrefix}api`,
  });
  procs.set('api', api);
  await Promise.all([startExecutor('xa'), startExecutor('xb')]);
  const { client } = await createApiClient(product, env, appId, `http://127.0.0.1:${port}`);
  for (let k = 0; k < args.kills; k++) {
    const requestId = `resume-${k}`;
    const file = `${requestId}.csv`;
    const params = { file, pages: args.pages, checkpointEvery: args.every, pageDelayMs: args['page-ms'] };
    const sub = await client.submitTask({ requestId, handler: 'export.resumable', params, maxAttempts: 5 });
    if (sub.status !== 202) throw new Error(`submit refused: ${sub.status} ${JSON.stringify(sub.body)}`);
    const killPage = 1 + Math.floor(Math.random() * (args.pages - 10));
    const path = join(dir, `${file}.journal`);
    await until(`${requestId} at page ${killPage}`, () => journal(path).some((e) => e.page >= killPage));
    const node = String((await rowOf(requestId)).node_id);
    const victim = [...procs.keys()].find((n) => node === `${nodePrefix}${n}` || node.startsWith(`${nodePrefix}${n}-`));
    if (!victim) throw new Error(`${requestId} runs on ${node}, not one of ours`);
    const before = journal(path);
    process.kill(procs.get(victim).pid, 'SIGKILL');
    const killedAt = Date.now();
    const restart = startExecutor(victim); // a new process (new node id) while the other one takes over
    const first = await until(`${requestId} to resume`, () => journal(path).find((e) => e.attempt > 1), 120_000);
    await restart;
    await until(`${requestId} SUCCESS`, async () => (await rowOf(requestId)).status === 'SUCCESS', 120_000, 100);
    const all = journal(path);
    const done = new Set(before.map((e) => e.page));
    const rerun = all.filter((e) => e.attempt > 1 && done.has(e.page)).length;
    const counts = Array.from({ length: args.pages }, () => 0);
    for (const e of all) counts[e.page]++;
    const complete =
      readFileSync(join(dir, file), 'utf8') === Array.from({ length: args.pages }, (_, p) => renderPage(p)).join('');
    if (!complete) problems.push(`${requestId}: export file not exactly complete`);
    if (Math.max(...counts) > 2 || Math.min(...counts) < 1) problems.push(`${requestId}: page counts ${counts}`);
    const lastBefore = Math.max(...before.map((e) => e.page));
    results.push({ kill: k + 1, killPage: lastBefore, rerun, resumeMs: first.at - killedAt, resumedAt: first.page });
    log(
      `kill ${k + 1}: after page ${lastBefore}, resumed at page ${first.page} in ${first.at - killedAt} ms, ${rerun} page(s) re-run`,
    );
  }
} finally {
  for (const p of procs.values()) await p.stop().catch(() => undefined);
  await cleanupCase(pool, redis, { namespace, appId, nodePrefix, since }).catch((e) => log(`cleanup: ${e.message}`));
  await pool.end();
  redis.disconnect();
  rmSync(dir, { recursive: true, force: true });
}

const rerun = distribution(results.map((r) => r.rerun));
const resume = distribution(results.map((r) => r.resumeMs));
const summary = {
  kills: results.length,
  pages: args.pages,
  every: args.every,
  leaseMs: args['lease-ms'],
  offlineMs: args['offline-ms'],
  rerunMedian: rerun.p50,
  rerunMax: rerun.max,
  resumeMsMedian: resume.p50,
  resumeMsP95: resume.p95,
  resumeMsMax: resume.max,
  problems,
};
if (args.json) process.stdout.write(`${JSON.stringify({ summary, results }, null, 2)}\n`);
else {
  log('');
  printTable(
    [
      { figure: 'pages re-run per kill', median: fmt(rerun.p50), p95: fmt(rerun.p95), max: fmt(rerun.max) },
      { figure: 'kill -> resume, ms', median: fmt(resume.p50), p95: fmt(resume.p95), max: fmt(resume.max) },
    ],
    ['figure', 'median', 'p95', 'max'],
    log,
  );
  log(
    problems.length
      ? `PROBLEMS:\n${problems.join('\n')}`
      : 'every export exactly complete, no page written more than twice',
  );
}
process.exit(problems.length ? 1 : 0);
