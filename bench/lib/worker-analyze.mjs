// bench:worker's figures: the `bench.echo` rows read back from MariaDB (with the handler's own start stamp from the
// result), per case and per round, the medians of each path, the worker/executor ratios against issue 22's targets,
// and the printed tables.
import { readTasks } from './dispatch-db.mjs';
import { printProfileTables } from './dispatch-report.mjs';
import { distribution, fmt, printTable } from './stats.mjs';

/** Issue 22's targets: the worker carries at least this share of the executor's rate... */
export const TARGET_RATE_RATIO = 0.5;
/** ...and adds at most this much to the p99 start latency, ms. */
export const TARGET_ADDED_P99_MS = 20;

/**
 * Every task row of `appId` with its attempts and the handler's start stamp (`result.t`, bench/lib/echo-node.mjs).
 * @returns {Promise<Array<Record<string, any>>>}
 */
export async function readEchoTasks(pool, appId) {
  return (await readTasks(pool, appId)).map((t) => ({ ...t, ranAt: ranAt(t.result) }));
}

/** The echo's start stamp in a stored result, or null (not the echo's result). */
function ranAt(result) {
  try {
    const t = JSON.parse(result ?? 'null')?.t;
    return t === undefined || t === null ? null : Number(t);
  } catch {
    return null;
  }
}

/**
 * Figures of one phase's tasks (`requestIds`) from {@link readEchoTasks} rows:
 * - lost: ids with no row or not SUCCESS; doubled: an id with two rows, a row with more than one job_attempt or
 *   attempt > 1;
 * - tasksPerSec = n / (last finished_at − first started_at);
 * - start (the headline latency) = handler start (result.t) − dispatched_at: the path from the moment the product
 *   put the id on the node's queue to the handler running, what the worker path adds to (long poll wake-up, the
 *   claim in the api, the HTTP answer); claim = started_at − dispatched_at (the claim's stamp), finish =
 *   finished_at − handler start (the HTTP finish for a worker, the in-process write for an executor), submit =
 *   handler start − created_at.
 */
export function analyzeEcho(rows, requestIds) {
  const wanted = new Set(requestIds);
  const byId = new Map();
  let doubled = 0;
  for (const r of rows) {
    if (!wanted.has(r.requestId)) continue;
    if (byId.has(r.requestId)) doubled++;
    else byId.set(r.requestId, r);
  }
  let lost = 0;
  let firstStart = Infinity;
  let lastFinish = -Infinity;
  const start = [];
  const claim = [];
  const finish = [];
  const submit = [];
  for (const id of requestIds) {
    const r = byId.get(id);
    if (!r || r.status !== 'SUCCESS') {
      lost++;
      continue;
    }
    if (r.attempts !== 1 || r.attempt !== 1) doubled++;
    firstStart = Math.min(firstStart, r.startedAt);
    lastFinish = Math.max(lastFinish, r.finishedAt);
    claim.push(r.startedAt - r.dispatchedAt);
    if (r.ranAt !== null) {
      start.push(r.ranAt - r.dispatchedAt);
      finish.push(r.finishedAt - r.ranAt);
      submit.push(r.ranAt - r.createdAt);
    }
  }
  const spanMs = lastFinish - firstStart;
  return {
    tasks: requestIds.length,
    lost,
    doubled,
    spanMs,
    tasksPerSec: spanMs > 0 ? requestIds.length / (spanMs / 1000) : NaN,
    start: distribution(start),
    claim: distribution(claim),
    finish: distribution(finish),
    submit: distribution(submit),
  };
}

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The figures of a case that go in the tables and the medians. */
function caseFigures(r) {
  return {
    tasksPerSec: r.tput.tasksPerSec,
    tputStartP50: r.tput.start.p50,
    tputStartP99: r.tput.start.p99,
    startP50: r.lat.start.p50,
    startP99: r.lat.start.p99,
    startMax: r.lat.start.max,
    claimP50: r.lat.claim.p50,
    claimP99: r.lat.claim.p99,
    finishP50: r.lat.finish.p50,
    finishP99: r.lat.finish.p99,
    apiCpu: r.cores.apiCpuSPer1000,
    nodeCpu: r.cores.executorsCpuSPer1000,
    sqlPerTask: r.perTask?.db.Questions ?? NaN,
    commitsPerTask: r.perTask?.db.Com_commit ?? NaN,
    redisPerTask: r.perTask?.redisCallsPerTask ?? NaN,
    mysqldCores: r.cores.mysqld,
    foreign: r.cores.foreign,
    load1: r.loadStart.load1,
  };
}

/**
 * Medians per path, and the ratios against the targets: worker/executor tasks/s (of the medians, and per round) and
 * the worker's added start latency p50/p99 (median worker − median executor, and per round).
 */
export function summarise(results) {
  const of = (kind) => results.filter((r) => r.kind === kind).map(caseFigures);
  const med = (rows) => Object.fromEntries(Object.keys(rows[0] ?? {}).map((k) => [k, median(rows.map((x) => x[k]))]));
  const ex = of('executor');
  const wk = of('worker');
  const medians = { executor: med(ex), worker: med(wk) };
  const rounds = wk.map((w, i) => ({
    rateRatio: ex[i] ? w.tasksPerSec / ex[i].tasksPerSec : NaN,
    addedP50: ex[i] ? w.startP50 - ex[i].startP50 : NaN,
    addedP99: ex[i] ? w.startP99 - ex[i].startP99 : NaN,
  }));
  const rateRatio = medians.worker.tasksPerSec / medians.executor.tasksPerSec;
  const addedP50 = medians.worker.startP50 - medians.executor.startP50;
  const addedP99 = medians.worker.startP99 - medians.executor.startP99;
  return {
    medians,
    rounds,
    rateRatio,
    addedP50,
    addedP99,
    targets: {
      rateRatio: { target: TARGET_RATE_RATIO, met: rateRatio >= TARGET_RATE_RATIO },
      addedP99: { target: TARGET_ADDED_P99_MS, met: addedP99 <= TARGET_ADDED_P99_MS },
    },
    lost: results.reduce((s, r) => s + r.tput.lost + r.lat.lost, 0),
    doubled: results.reduce((s, r) => s + r.tput.doubled + r.lat.doubled, 0),
  };
}

/** Prints the per-round table, the medians and the ratios against the targets through `log`. */
export function printWorkerReport(report, log) {
  const row = (label, f, lostDoubled) => ({
    case: label,
    'tasks/s': fmt(f.tasksPerSec),
    'start p50/p99/max ms': `${fmt(f.startP50)} / ${fmt(f.startP99)} / ${fmt(f.startMax)}`,
    'claim p50/p99': `${fmt(f.claimP50)} / ${fmt(f.claimP99)}`,
    'finish p50/p99': `${fmt(f.finishP50)} / ${fmt(f.finishP99)}`,
    'batch start p50/p99': `${fmt(f.tputStartP50)} / ${fmt(f.tputStartP99)}`,
    'api / node CPU s per 1k': `${fmt(f.apiCpu, 2)} / ${fmt(f.nodeCpu, 2)}`,
    'SQL / commits / Redis per task': `${fmt(f.sqlPerTask, 1)} / ${fmt(f.commitsPerTask, 1)} / ${fmt(f.redisPerTask, 1)}`,
    'mysqld cores': fmt(f.mysqldCores, 2),
    foreign: fmt(f.foreign, 2),
    load1: fmt(f.load1, 2),
    'lost/doubled': lostDoubled,
  });
  const rows = report.results.map((r) =>
    row(`${r.round} ${r.kind}`, caseFigures(r), `${r.tput.lost + r.lat.lost}/${r.tput.doubled + r.lat.doubled}`),
  );
  const s = report.summary;
  rows.push(row('median executor', s.medians.executor, ''), row('median worker', s.medians.worker, ''));
  log(
    `\nbench.echo, ${report.args.n} batch-submitted tasks (tasks/s, CPU) + ${report.args['lat-n']} paced at ` +
      `${report.args['lat-rate']}/s (start latency = handler start − dispatched_at), concurrency ${report.args.concurrency}:`,
  );
  printTable(rows, Object.keys(rows[0]), log);
  const ok = (t) => (t.met ? 'met' : 'MISSED');
  log(
    `\nworker / executor tasks/s: ${fmt(s.rateRatio, 2)} (target ≥ ${TARGET_RATE_RATIO}: ${ok(s.targets.rateRatio)}); ` +
      `per round ${s.rounds.map((x) => fmt(x.rateRatio, 2)).join(', ')}`,
  );
  log(
    `worker's added start latency: p50 ${fmt(s.addedP50, 1)} ms, p99 ${fmt(s.addedP99, 1)} ms (target p99 ≤ ` +
      `${TARGET_ADDED_P99_MS} ms: ${ok(s.targets.addedP99)}); per round p99 ${s.rounds.map((x) => fmt(x.addedP99)).join(', ')} ms`,
  );
  log(`lost ${s.lost}, doubled ${s.doubled} (every task SUCCESS once, one attempt each: ${s.lost + s.doubled === 0})`);
}

/** --cpu-prof: where the api process's and the node's CPU went in each case's batch window (self time, µs/task). */
export function printProfiles(report, log) {
  for (const r of report.results) {
    if (!r.cpuProfile) continue;
    for (const [who, prof, cores] of [
      ['api,scheduler', r.cpuProfile.api, r.cores.api],
      [r.kind, r.cpuProfile.node, r.cores.executorsTotal],
    ]) {
      if (!prof) {
        log(`\nround ${r.round} ${r.kind}, ${who}: no profile`);
        continue;
      }
      const usPerTask = (cores * r.windowMs * 1000) / r.n;
      log(
        `\nround ${r.round} ${r.kind}, ${who}: ${fmt(usPerTask)} µs CPU per task (/proc); self time by package/file:`,
      );
      printProfileTables(prof, usPerTask, log);
    }
  }
}
