// Human-readable tables of the trigger benchmark (ours, and ours against BullMQ).
import { fmt, printTable } from './stats.mjs';

const TARGET_P99_MS = 20;
const TARGET_RSS_MB = 400;
/** Issue 27 item 5, for `--mix big` (1,000,000 jobs): leader RSS and the first fire after the leader's start. */
const BIG_TARGET_RSS_MB = 1024;
const BIG_TARGET_FIRST_FIRE_S = 30;

/**
 * Prints the per-N tables: lateness, completeness, resources, and how the pages were spent.
 * @param {Record<string, any>} report the bench report (results[] from runCase)
 * @param {(s: string) => void} log
 */
export function printResults(report, log) {
  log(
    `\nTickwheel trigger benchmark — product: ${report.product}; Redis hz ${report.redisHz}; ${report.args.warmup} s warm-up, ${report.args.window} s window`,
  );
  log(
    'release = when the stand-in executor node got the id off its ready list, minus fire_time (ms): the fire as an executor sees it.',
  );
  log(
    'written = job_instance.created_at - fire_time (ms; stamped when the page writing the row starts; negative = staged ahead).',
  );
  log(
    `commit = when all rows of a fire second were visible to another connection, minus that second (probe every ${report.args['probe-ms']} ms).`,
  );
  const R = report.results;
  printTable(
    R.map((r) => ({
      N: fmt(r.n),
      'fires/s': fmt(r.firesPerSec, 1),
      expected: fmt(r.expected),
      fires: fmt(r.fires),
      missing: fmt(r.missing),
      dups: fmt(r.duplicates),
      misfire: fmt(r.misfire),
      'release p50': r.release ? fmt(r.release.p50) : 'n/a',
      p95: r.release ? fmt(r.release.p95) : 'n/a',
      p99: r.release ? fmt(r.release.p99) : 'n/a',
      max: r.release ? fmt(r.release.max) : 'n/a',
      unreleased: r.release ? fmt(r.release.unreleased) : 'n/a',
      'written p50': fmt(r.lateness.p50),
      'written p99': fmt(r.lateness.p99),
      'commit p50': fmt(r.commit.p50),
      'commit p99': fmt(r.commit.p99),
    })),
    undefined,
    log,
  );
  log('');
  printTable(
    R.map((r) => ({
      N: fmt(r.n),
      'RSS boot MB': fmt(r.rssAfterBootMB),
      'RSS peak MB': fmt(r.rss.peakMB),
      'RSS HWM MB': fmt(r.rss.hwmMB),
      'RSS window median': fmt(r.rss.windowMedianMB),
      'CPU s (window)': fmt(r.cpuS, 1),
      'CPU s/1000 fires': fmt(r.cpuPer1000, 2),
      'product cores': fmt(r.cores.product, 2),
      'mariadbd cores': fmt(r.cores.mysqld, 2),
      'redis cores': fmt(r.cores.redis, 2),
      'foreign cores': fmt(r.cores.foreign, 2),
      'load1 start/end': `${r.loadStart.load1}/${r.loadEnd.load1}`,
    })),
    undefined,
    log,
  );
  log('');
  printTable(
    R.map((r) => ({
      N: fmt(r.n),
      'pages/fire-second': fmt(r.pagesPerSlot, 2),
      'rows/page p50': fmt(r.rowsPerPage.p50),
      'page ms p50': fmt(r.pageMs.p50),
      'page ms p99': fmt(r.pageMs.p99),
      'last page->commit p50': fmt(r.lastPageToCommit.p50),
      'wake p50': fmt(r.wake.p50),
      'wake p99': fmt(r.wake.p99),
      'last page p99': fmt(r.lastPage.p99),
      'register s': fmt(r.registerS, 1),
      'enable s': fmt(r.enableS, 1),
      'boot s': fmt(r.bootS, 1),
      'log lines': fmt(r.productLogLines),
    })),
    undefined,
    log,
  );
  log(
    "(wake = lateness of the first page of each fire second; page ms = spacing of consecutive pages of one second = one page's SELECT+UPDATEs+INSERT+COMMIT+dispatch)",
  );
  for (const r of R) {
    if (r.mix === 'big') {
      printBigTarget(r, log);
      continue;
    }
    const base = r.rss.peakMB <= TARGET_RSS_MB && r.missing === 0 && r.duplicates === 0;
    if (r.release) {
      const ok = base && r.release.unreleased === 0 && r.release.p99 <= TARGET_P99_MS;
      log(
        `N=${fmt(r.n)}: target p99 <= ${TARGET_P99_MS} ms at release, RSS <= ${TARGET_RSS_MB} MB, none missing/duplicated/unreleased — ${ok ? 'MEETS' : 'MISSES'} ` +
          `(release p99 ${fmt(r.release.p99)} ms, max ${fmt(r.release.max)} ms; unreleased ${fmt(r.release.unreleased)}; RSS peak ${fmt(r.rss.peakMB)} MB; missing ${fmt(r.missing)}; duplicates ${r.duplicates})`,
      );
      continue;
    }
    const byStamp = base && r.lateness.p99 <= TARGET_P99_MS;
    const byCommit = base && r.commit.p99 <= TARGET_P99_MS && r.commit.probed === r.commit.slots;
    log(
      `N=${fmt(r.n)}: target p99 <= ${TARGET_P99_MS} ms, RSS <= ${TARGET_RSS_MB} MB, none missing/duplicated — ` +
        `by created_at: ${byStamp ? 'MEETS' : 'MISSES'} (p99 ${fmt(r.lateness.p99)} ms); by commit: ${byCommit ? 'MEETS' : 'MISSES'} (p99 ${fmt(r.commit.p99)} ms, ${r.commit.probed}/${r.commit.slots} seconds seen complete); ` +
        `RSS peak ${fmt(r.rss.peakMB)} MB; missing ${fmt(r.missing)}; duplicates ${r.duplicates}`,
    );
  }
  log(`load: ${R.map((r) => `N=${fmt(r.n)} start "${r.loadStart.uptime}"`).join('; ')}; end "${report.loadAtEnd}"`);
}

/** The verdict of a `--mix big` case against issue 27's targets (release p99, leader RSS high-water mark, first fire). */
function printBigTarget(r, log) {
  const first = Number.isFinite(r.firstReleaseS) ? r.firstReleaseS : r.firstWrittenS;
  const p99 = r.release ? r.release.p99 : r.lateness.p99;
  const ok =
    p99 <= TARGET_P99_MS &&
    r.rss.hwmMB <= BIG_TARGET_RSS_MB &&
    first <= BIG_TARGET_FIRST_FIRE_S &&
    r.missing === 0 &&
    r.duplicates === 0 &&
    (r.release?.unreleased ?? 0) === 0;
  log(
    `N=${fmt(r.n)} (mix big): target p99 <= ${TARGET_P99_MS} ms, leader RSS <= ${BIG_TARGET_RSS_MB} MB, first fire <= ${BIG_TARGET_FIRST_FIRE_S} s after start, none missing/duplicated — ${ok ? 'MEETS' : 'MISSES'} ` +
      `(${r.release ? 'release' : 'written'} p99 ${fmt(p99)} ms, max ${fmt(r.release ? r.release.max : r.lateness.max)} ms; RSS HWM ${fmt(r.rss.hwmMB)} MB; ` +
      `first fire ${fmt(first, 1)} s; missing ${fmt(r.missing)}; duplicates ${r.duplicates}; CPU ${fmt(r.cpuPer1000, 3)} s / 1,000 fires)`,
  );
}

/**
 * Prints the per-unit costs of each case (the figures docs/scaling.md is built from): the mix, the leader's start,
 * and the servers' work per fire in the window (server-wide counters: exact only on servers of the bench's own).
 * @param {Record<string, any>} report
 * @param {(s: string) => void} log
 */
export function printScale(report, log) {
  log("\nStart and per-fire costs (window; MariaDB/Redis counters are server-wide, the probe's queries taken off):");
  printTable(
    report.results.map((r) => ({
      N: fmt(r.n),
      mix: r.mixCounts
        ? Object.entries(r.mixCounts)
            .map(([k, c]) => `${k} ${fmt(c)}`)
            .join(', ')
        : r.mix,
      'first written s': r.mix === 'big' ? fmt(r.firstWrittenS, 1) : 'n/a',
      'first release s': r.mix === 'big' ? fmt(r.firstReleaseS, 1) : 'n/a',
      'CPU ms/fire': fmt(r.cpuPer1000, 3),
      'SQL stmts/fire': fmt(r.perFire.db.Questions, 2),
      'rows written/fire': fmt(r.perFire.db.Handler_write, 2),
      'rows updated/fire': fmt(r.perFire.db.Handler_update, 2),
      'index reads/fire': fmt(r.perFire.db.Handler_read_next + r.perFire.db.Handler_read_key, 1),
      'commits/fire': fmt(r.perFire.db.Com_commit, 3),
      'fsyncs/fire': fmt(r.perFire.db.Innodb_data_fsyncs, 3),
      'Redis calls/fire': fmt(r.perFire.redisCallsPerTask, 2),
    })),
    undefined,
    log,
  );
  for (const r of report.results)
    log(
      `N=${fmt(r.n)} Redis calls per fire by command: ${r.perFire.redis
        .slice(0, 8)
        .map((c) => `${c.cmd} ${fmt(c.perTask, 3)}`)
        .join(', ')}`,
    );
}

/** Our headline p99: at release when the stand-in consumer ran, else at created_at. */
function ours(r) {
  return r.release ? r.release.p99 : r.lateness.p99;
}

/** Picks the BullMQ delayed case whose job rate is closest to `rate` (fires/s). */
function closest(delayed, rate) {
  return [...delayed].sort((a, b) => Math.abs(Math.log(a.rate / rate)) - Math.abs(Math.log(b.rate / rate)))[0];
}

/**
 * Prints BullMQ's figures from the same sitting and the p99 ratios ours / BullMQ.
 * @param {Record<string, any>} report the bench report with `peers` filled
 * @param {(s: string) => void} log
 */
export function printPeers(report, log) {
  const P = report.peers;
  log(
    `\nBullMQ baselines (../shared/peers, same sitting; Redis hz ${P.redisHz}; loadavg at end ${P.loadavg}). Lateness = handler start - intended time, ms.`,
  );
  printTable(
    [
      ...P.delayed.map((d) => ({
        case: `delayed n=${fmt(d.n)} (${fmt(d.rate)}/s)`,
        p50: fmt(d.p50, 1),
        p95: fmt(d.p95, 1),
        p99: fmt(d.p99, 1),
        max: fmt(d.max, 1),
        note: `foreign ${fmt(d.foreignCores, 2)} cores${d.disturbed ? ' DISTURBED' : ''}`,
      })),
      ...P.schedulers.map((s) => ({
        case: `schedulers S=${fmt(s.S)} */5 s (burst)`,
        p50: fmt(s.p50, 1),
        p95: fmt(s.p95, 1),
        p99: fmt(s.p99, 1),
        max: fmt(s.max, 1),
        note: `fired ${fmt(s.processedPct, 1)} %, RSS max ${fmt(s.rssMaxMB)} MB, foreign ${fmt(s.foreignCores, 2)}${s.disturbed ? ' DISTURBED' : ''}`,
      })),
    ],
    undefined,
    log,
  );
  log('');
  const rows = [];
  for (const r of report.results) {
    const rate = r.expected / report.args.window; // the intended rate (the achieved one can be lower)
    const d = P.delayed.length ? closest(P.delayed, rate) : null;
    const s = P.schedulers[0];
    rows.push({
      ours: `N=${fmt(r.n)} (${fmt(rate)}/s due)`,
      'ours p99': fmt(ours(r)),
      'measured at': r.release ? 'release' : 'created_at',
      'BullMQ delayed': d ? `n=${fmt(d.n)} p99 ${fmt(d.p99, 1)}` : 'n/a',
      'ratio p99 ours/delayed': d ? fmt(ours(r) / d.p99, 2) : 'n/a',
      'ratio p99 ours/schedulers': s ? fmt(ours(r) / s.p99, 3) : 'n/a',
    });
  }
  printTable(rows, undefined, log);
  log(
    '(< 1 means we are more precise. BullMQ: handler start; ours at release: the id reaching the executor node, before its MariaDB claim.)',
  );
}

/**
 * Prints where the scheduler's CPU went during the window (from --cpu-prof), per run.
 * @param {Record<string, any>} report
 * @param {(s: string) => void} log
 */
export function printProfiles(report, log) {
  for (const r of report.results) {
    if (!r.cpuProfile) continue;
    log(
      `\nN=${fmt(r.n)}: scheduler CPU in the window by package/file (self time, ${fmt(r.cpuProfile.totalMs)} ms sampled)`,
    );
    printTable(
      r.cpuProfile.byBucket.map((b) => ({ what: b.what, ms: fmt(b.ms), '%': fmt(b.pct, 1) })),
      undefined,
      log,
    );
    log('top functions (self time):');
    printTable(
      r.cpuProfile.byFunction.map((b) => ({ what: b.what, ms: fmt(b.ms), '%': fmt(b.pct, 1) })),
      undefined,
      log,
    );
  }
}

/**
 * Prints the DB floor (the page SQL with bare mysql2) next to the page times the product showed.
 * @param {Record<string, any>} report
 * @param {(s: string) => void} log
 */
export function printFloor(report, log) {
  log("\nDB floor of one page (the product's page SQL issued with bare mysql2, same sitting; median of 5, ms):");
  printTable(
    report.dbFloor.map((f) => ({
      'page rows': fmt(f.size),
      total: fmt(f.totalMs, 1),
      'SELECT page': fmt(f.selectMs, 1),
      'UPDATEs (1/row)': fmt(f.updatesMs, 1),
      'per-row UPDATE': fmt(f.perRowUpdateMs, 2),
      'INSERT IGNORE': fmt(f.insertMs, 1),
      COMMIT: fmt(f.commitMs, 1),
      'SELECT by ids': fmt(f.rereadMs, 1),
    })),
    undefined,
    log,
  );
  for (const r of report.results) {
    const size = Math.round(r.rowsPerPage.p50);
    const f = [...report.dbFloor].sort((a, b) => Math.abs(a.size - size) - Math.abs(b.size - size))[0];
    if (r.lateness.p50 < 0) {
      log(
        `N=${fmt(r.n)}: fires were staged ~${fmt(-r.lateness.p50)} ms ahead, so the probe cannot time a page; the DB floor above is what one page costs the database`,
      );
      continue;
    }
    const productMs = Number.isFinite(r.pageMs.p50) ? r.pageMs.p50 : r.lastPageToCommit.p50;
    log(
      `N=${fmt(r.n)}: product page of ~${fmt(size)} rows took ~${fmt(productMs)} ms (p50) vs DB floor ${fmt(f.totalMs)} ms for ${fmt(f.size)} rows -> DB is ~${fmt((100 * f.totalMs * (size / f.size)) / productMs)} % of the page`,
    );
  }
}
