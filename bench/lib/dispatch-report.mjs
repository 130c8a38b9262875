// Human-readable tables of the dispatch benchmark (ours, the peers from ../shared/peers, and the ratios).
import { fmt, printTable } from './stats.mjs';

/** A case's label after its executor count: the submit mode (bench:dispatch) or the case (bench:delayed). */
const modeName = (m) => m;

/** CPU ms per task of everything the case ran: product processes, mariadbd, redis and the bench's client. */
export function allCpuMsPerTask(r) {
  const c = r.cores;
  return ((c.api + c.executorsTotal + c.mysqld + c.redis + c.harness) * r.windowMs) / r.n;
}

/**
 * The server-work columns of a case's row: MariaDB statements, commits, fsyncs, reads and Redis calls per task.
 * @param {ReturnType<import('./dispatch-db.mjs').perTask>} p
 * @returns {Record<string, string>}
 */
export function serverWorkColumns(p) {
  const d = p.db;
  return {
    'SQL stmts': fmt(d.Questions, 1),
    SELECT: fmt(d.Com_select, 1),
    INSERT: fmt(d.Com_insert, 2),
    UPDATE: fmt(d.Com_update, 2),
    'handler commits': fmt(d.Handler_commit, 1),
    fsyncs: fmt(d.Innodb_data_fsyncs, 2),
    'log writes': fmt(d.Innodb_log_writes, 2),
    'index reads': fmt(d.Handler_read_key + d.Handler_read_next, 1),
    'rows scanned': fmt(d.Handler_read_rnd_next, 1),
    'Redis calls': fmt(p.redisCallsPerTask, 1),
    'top Redis commands (calls/task)': p.redis
      .slice(0, 7)
      .map((c) => `${c.cmd} ${fmt(c.perTask, 2)}`)
      .join(', '),
  };
}

/**
 * Prints the per-case tables: throughput and latency, CPU per process, and server work per task.
 * @param {Record<string, any>} report the bench report (results[] from runCase)
 * @param {(s: string) => void} log
 */
export function printDispatchResults(report, log) {
  const A = report.args;
  log(
    `\nTickwheel dispatch benchmark — product: ${report.product}; n=${fmt(A.n)} noop tasks per case${progressNote(A.progress)}; single = one signed POST /api/tasks per task, ${A.rate > 0 ? `open loop at ${A.rate}/s` : `${A['in-flight']} in flight`}; ` +
      `batch = POST /api/tasks/batch of ${A['batch-size']}, ${A['batch-in-flight']} in flight; Redis hz ${report.redisHz}`,
  );
  log(
    'tasks/s = n / (last finished_at - first submit). start = started_at - created_at (ms): dispatch = dispatched_at - created_at, queue = started_at - dispatched_at.',
  );
  const R = report.results;
  printTable(
    R.map((r) => ({
      executors: r.executors,
      submit: modeName(r.mode),
      'tasks/s': fmt(r.tasksPerSec),
      'submit s': fmt(r.submit.ms / 1000, 1),
      'submit/s': fmt(r.submit.perSec),
      'drain s': fmt(r.drainMs / 1000, 1),
      'start p50': fmt(r.latency.p50),
      'start p99': fmt(r.latency.p99),
      'start max': fmt(r.latency.max),
      'dispatch p50': fmt(r.dispatch.p50),
      'queue p50': fmt(r.queue.p50),
      'queue p99': fmt(r.queue.p99),
      lost: fmt(r.lost),
      doubled: fmt(r.doubled),
      refused: fmt(r.submit.refused),
      'per node': Object.values(r.perNode).join('/'),
    })),
    undefined,
    log,
  );
  log('');
  log(
    "CPU in cores over the window (first submit -> all finished); CPU s per 1,000 tasks of the product's processes; all ms/task = CPU of the product, mariadbd, redis and the client per task.",
  );
  printTable(
    R.map((r) => ({
      executors: r.executors,
      submit: modeName(r.mode),
      'window s': fmt(r.windowMs / 1000, 1),
      'api/sched': fmt(r.cores.api, 2),
      'executor procs': r.cores.executors.map((c) => fmt(c, 2)).join('+'),
      mariadbd: fmt(r.cores.mysqld, 2),
      redis: fmt(r.cores.redis, 2),
      'harness (client)': fmt(r.cores.harness, 2),
      foreign: fmt(r.cores.foreign, 2),
      machine: fmt(r.cores.machine, 2),
      'api s/1000': fmt(r.cores.apiCpuSPer1000, 2),
      'exec s/1000': fmt(r.cores.executorsCpuSPer1000, 2),
      'all ms/task': fmt(allCpuMsPerTask(r), 2),
      'RSS api/exec MB': `${fmt(r.rss.api[1])}/${r.rss.executors.map((x) => fmt(x[1])).join(',')}`,
      'load1 start/end': `${r.loadStart.load1}/${r.loadEnd.load1}`,
    })),
    undefined,
    log,
  );
  log('');
  log(
    "Server work per task (global counters, so anything else on the shared servers counts too; the bench's own polls are taken off):",
  );
  printTable(
    R.map((r) => ({ executors: r.executors, submit: modeName(r.mode), ...serverWorkColumns(r.perTask) })),
    undefined,
    log,
  );
  const rated = R.filter((r) => r.submit.rate);
  if (rated.length) {
    log('');
    log(
      'POST /api/tasks sent open loop (--rate): latency = client side, request handed to the socket -> answer read (ms); ' +
        'late = how far behind its schedule a send went out (the harness); client µs = CPU of the bench process per request.',
    );
    printTable(
      rated.map((r) => {
        const x = r.submit.rate;
        return {
          executors: r.executors,
          'rate req/s': fmt(x.target),
          'sent/s': fmt(x.sentPerSec),
          'answered/s': fmt(x.answeredPerSec),
          held: x.held ? 'yes' : 'NO',
          'POST p50': fmt(x.latencyMs.p50, 1),
          'POST p99': fmt(x.latencyMs.p99, 1),
          'POST max': fmt(x.latencyMs.max, 1),
          'late p99': fmt(x.lagMs.p99, 1),
          'late max': fmt(x.lagMs.max, 1),
          'max in flight': fmt(x.maxInFlight),
          'client µs/req': fmt(x.clientCpuUsPerRequest),
          'api µs/req': fmt(r.cores.apiCpuSPer1000 * 1000),
        };
      }),
      undefined,
      log,
    );
  }
  for (const r of R) {
    const ok = r.lost === 0 && r.doubled === 0 && r.submit.refused === 0 && r.finished.done;
    log(
      `${r.executors} exec ${modeName(r.mode)}: ${ok ? 'none lost, none doubled' : 'PROBLEM'} — ${fmt(r.rows)} rows for ${fmt(r.tasks)} request ids, statuses ${JSON.stringify(r.statuses)}, ` +
        `ran twice ${r.ranTwice}, refused ${r.submit.refused}${r.submit.refused ? ` (e.g. ${JSON.stringify(r.submit.refusedSample[0])})` : ''}; product warn lines ${r.productWarnLines}`,
    );
  }
  log(
    `load: ${R.map((r) => `${r.executors}x ${r.mode} start "${r.loadStart.uptime}"`).join('; ')}; end "${report.loadAtEnd}"`,
  );
}

/**
 * Prints where the product's CPU went during each profiled case (--cpu-prof): the API process and the
 * executors. The profiler samples wall time while a thread is runnable, so on a loaded machine its ms
 * overstate CPU; the shares are scaled to the CPU time /proc measured for the process in the window.
 * @param {Record<string, any>} report
 * @param {(s: string) => void} log
 */
export function printDispatchProfiles(report, log) {
  for (const r of report.results) {
    const p = r.cpuProfile;
    if (!p) continue;
    const show = (label, prof, cores, tasks) => {
      if (!prof) {
        log(`\n${label}: no profile (the process did not exit normally)`);
        return;
      }
      const cpuMs = cores * r.windowMs;
      log(
        `\n${label}: ${fmt(cpuMs)} ms CPU in the window (/proc) = ${fmt((cpuMs * 1000) / tasks)} µs per task (${fmt(tasks)} tasks); ${fmt(prof.totalMs)} ms sampled. By package/file (self time):`,
      );
      printProfileTables(prof, (cpuMs * 1000) / tasks, log);
    };
    show(`${r.executors} exec ${modeName(r.mode)} — api,scheduler process`, p.api, r.cores.api, r.n);
    log(
      `\n${r.executors} exec ${modeName(r.mode)} — executors: ${fmt(r.cores.executorsTotal * r.windowMs)} ms CPU in all (/proc), ${fmt((r.cores.executorsTotal * r.windowMs * 1000) / r.n)} µs per task`,
    );
    const ran = Object.entries(r.perNode).find(([id]) => /^benchd-\d+-1-/.test(id))?.[1] ?? r.n / r.executors;
    show(
      `${r.executors} exec ${modeName(r.mode)} — executor 1 (of ${p.executors.length}), per task it ran`,
      p.executors[0],
      r.cores.executors[0],
      ran,
    );
  }
}

/**
 * A CPU profile's two tables (bench/lib/cpuprof.mjs summariseProfile): self time by package/file and by function,
 * each share also as µs per task of `usPerTask`.
 */
export function printProfileTables(prof, usPerTask, log) {
  const rows = (list) =>
    list.map((b) => ({ what: b.what, '%': fmt(b.pct, 1), 'µs/task': fmt((b.pct / 100) * usPerTask) }));
  printTable(rows(prof.byBucket), undefined, log);
  log('top functions (self time):');
  printTable(rows(prof.byFunction), undefined, log);
}

/** One line on an open-loop submit (--rate): the rate asked and held, and the POST latency. */
export function rateLine(x) {
  return (
    `rate ${fmt(x.target)}/s: sent ${fmt(x.sentPerSec)}/s, answered ${fmt(x.answeredPerSec)}/s (${x.held ? 'held' : 'NOT held'}); ` +
    `POST p50 ${fmt(x.latencyMs.p50, 1)} ms p99 ${fmt(x.latencyMs.p99, 1)} ms max ${fmt(x.latencyMs.max, 1)} ms; ` +
    `late sends p99 ${fmt(x.lagMs.p99, 1)} ms max ${fmt(x.lagMs.max, 1)} ms; ${fmt(x.maxInFlight)} in flight at most; ` +
    `client ${fmt(x.clientCpuUsPerRequest)} µs CPU per request`
  );
}

/** The peer case with the highest end-to-end rate among `cases` (median over runs). */
function best(cases) {
  return cases.length ? [...cases].sort((a, b) => b.e2e - a.e2e)[0] : null;
}

/**
 * Ours against the strongest peer configuration of the same submit style, per case:
 * single vs BullMQ `add` and pg-boss `send`, batch vs BullMQ `addBulk` and pg-boss `insert`.
 * @returns {Array<Record<string, any>>}
 */
export function ratios(report) {
  const P = report.peers;
  const out = [];
  for (const r of report.results) {
    const peerMode = r.mode === 'single' ? 'single' : 'bulk';
    const bull = best(P.bullmq.filter((c) => c.mode === peerMode));
    const boss = best((P.pgboss ?? []).filter((c) => c.mode === peerMode));
    out.push({
      executors: r.executors,
      mode: r.mode,
      ours: r.tasksPerSec,
      oursSubmitPerSec: r.submit.perSec,
      bullmq: bull,
      vsBullmq: bull ? r.tasksPerSec / bull.e2e : NaN,
      submitVsBullmqAdd: bull ? r.submit.perSec / bull.add : NaN,
      pgboss: boss,
      vsPgboss: boss ? r.tasksPerSec / boss.e2e : NaN,
    });
  }
  return out;
}

const peerLabel = (c, kind) =>
  c
    ? `${kind === 'bullmq' ? (c.mode === 'single' ? 'add x1' : `addBulk x${c.batch}`) : c.mode === 'single' ? 'send x1' : `insert x${c.batch}`} ${c.topology === 'inproc' ? '1 proc' : '2 procs'} c=${c.concurrency}`
    : 'n/a';

/**
 * Prints the peers' figures from the same sitting and the ratios ours / peer.
 * @param {Record<string, any>} report the bench report with `peers` (and `ratios` when ours ran)
 * @param {(s: string) => void} log
 */
export function printDispatchPeers(report, log) {
  const P = report.peers;
  log(
    `\nPeers (../shared/peers, same sitting, n=${fmt(P.n)}, median of ${P.runs} run(s); Redis hz ${P.redisHz}; loadavg at end ${P.loadavg}). e2e = n / (first add -> last completion).`,
  );
  printTable(
    [
      ...P.bullmq.map((c) => ({
        peer: 'BullMQ',
        producer: c.mode === 'single' ? 'add x1 (1 in flight)' : `addBulk x${c.batch}`,
        consumer: `${c.topology === 'inproc' ? '1 proc' : '2 procs'} c=${c.concurrency}${c.topology === 'inproc' ? '' : ' x2'}`,
        'e2e jobs/s': fmt(c.e2e),
        'min..max': `${fmt(c.e2eMin)}..${fmt(c.e2eMax)}`,
        'add-phase /s': fmt(c.add),
        note: `foreign ${fmt(c.foreignCores, 2)}${c.disturbed ? ' DISTURBED' : ''}`,
      })),
      ...(P.pgboss ?? []).map((c) => ({
        peer: 'pg-boss',
        producer: c.mode === 'single' ? 'send x1 (1 in flight)' : `insert x${c.batch}`,
        consumer: `${c.topology === 'inproc' ? '1 proc' : '2 procs'} fetch(batch ${c.concurrency})`,
        'e2e jobs/s': fmt(c.e2e),
        'min..max': `${fmt(c.e2eMin)}..${fmt(c.e2eMax)}`,
        'add-phase /s': fmt(c.add),
        note: `foreign ${fmt(c.foreignCores, 2)}${c.disturbed ? ' DISTURBED' : ''}`,
      })),
    ],
    undefined,
    log,
  );
  if (P.pgbossSkipped) log(`pg-boss skipped: ${P.pgbossSkipped}`);
  if (!report.ratios?.length) return;
  log('\nRatios, ours / the best peer configuration of the same submit style (> 1: we are faster):');
  printTable(
    report.ratios.map((x) => ({
      ours: `${x.executors} exec ${x.mode}`,
      'ours tasks/s': fmt(x.ours),
      BullMQ: peerLabel(x.bullmq, 'bullmq'),
      'BullMQ /s': x.bullmq ? fmt(x.bullmq.e2e) : 'n/a',
      'ours/BullMQ': fmt(x.vsBullmq, 2),
      'submit phase ours/BullMQ add-phase': fmt(x.submitVsBullmqAdd, 2),
      'pg-boss': peerLabel(x.pgboss, 'pgboss'),
      'pg-boss /s': x.pgboss ? fmt(x.pgboss.e2e) : 'n/a',
      'ours/pg-boss': fmt(x.vsPgboss, 2),
    })),
    undefined,
    log,
  );
  log(
    `(single: ours has ${report.args['in-flight']} requests in flight, BullMQ add and pg-boss send have 1: the peers' producers are sequential awaited calls.)`,
  );
}

/**
 * Prints, per case traced with --sql-trace, the SQL statements per task of the API process and of the
 * executors (by shape, with the mean round trip as mysql2 saw it).
 * @param {Record<string, any>} report
 * @param {(s: string) => void} log
 */
export function printSqlTraces(report, log) {
  for (const r of report.results) {
    if (!r.sqlTrace) continue;
    for (const [role, t] of [
      ['api,scheduler process', r.sqlTrace.api],
      ['executors (all)', r.sqlTrace.executors],
    ]) {
      if (!t) {
        log(`\n${r.executors} exec ${modeName(r.mode)} — ${role}: no SQL trace`);
        continue;
      }
      log(`\n${r.executors} exec ${modeName(r.mode)} — ${role}: ${fmt(t.perTask, 2)} SQL statements per task`);
      printTable(
        t.shapes
          .filter((s) => s.perTask >= 0.001)
          .slice(0, 15)
          .map((s) => ({
            'per task': fmt(s.perTask, 3),
            calls: fmt(s.calls),
            'avg ms': fmt(s.avgMs, 2),
            statement: s.shape.slice(0, 150),
          })),
        ['per task', 'calls', 'avg ms', 'statement'],
        log,
      );
    }
  }
}

/** What --progress made each noop task do (dispatch-bench.mjs). */
function progressNote(progress) {
  if (progress === 'only') return ' (each reports progress once)';
  return progress ? ' (each reports progress once and stores one checkpoint)' : '';
}
