// Preloaded into a product process by `bench:dispatch --sql-trace` (node --import this file). Counts every
// statement mysql2 sends, by shape (literals folded to ?, IN lists and VALUES tuples collapsed), with its
// round-trip time, through mysql2's diagnostics_channel tracing channels — the product is not touched.
// When the file `${BENCH_SQL_TRACE_FILE}.<n>.want` appears (n = 1, 2, ...) it writes the counts so far to
// `${BENCH_SQL_TRACE_FILE}.<n>`: the bench asks at the start and at the end of its window and subtracts.
import dc from 'node:diagnostics_channel';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const file = process.env.BENCH_SQL_TRACE_FILE;
const shapes = new Map(); // shape -> {calls, ms}
const STARTED = Symbol('benchSqlStart');
let snapshots = 0;

/** The statement with its literals replaced by ?, and repeated ?-lists and tuples collapsed. */
export function shapeOf(sql) {
  return String(sql)
    .replace(/'(?:[^'\\]|\\.)*'/g, '?')
    .replace(/\b0x[0-9a-f]+\b/gi, '?')
    .replace(/(?<![\w`.])-?\d+(?:\.\d+)?\b/g, '?')
    .replace(/\bNULL\b/gi, '?')
    .replace(/\?(?:\s*,\s*\?)+/g, '?…')
    .replace(/\((\?…|\?)\)(?:\s*,\s*\((?:\?…|\?)\))+/g, '(…)×n')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 220);
}

function record(ctx) {
  const t = ctx[STARTED];
  if (t === undefined) return;
  ctx[STARTED] = undefined;
  const shape = shapeOf(ctx.query);
  const s = shapes.get(shape) ?? { calls: 0, ms: 0 };
  s.calls++;
  s.ms += performance.now() - t;
  shapes.set(shape, s);
}

if (file && typeof dc.tracingChannel === 'function') {
  for (const name of ['mysql2:query', 'mysql2:execute']) {
    dc.tracingChannel(name).subscribe({
      start(ctx) {
        ctx[STARTED] = performance.now();
      },
      end() {},
      asyncStart() {},
      asyncEnd: record,
      error: record,
    });
  }
  // Not a signal: Nest's enableShutdownHooks() shuts the app down on SIGUSR2 (and the others).
  setInterval(() => {
    const out = `${file}.${snapshots + 1}`;
    if (!existsSync(`${out}.want`)) return;
    snapshots++;
    writeFileSync(`${out}.tmp`, JSON.stringify({ at: Date.now(), shapes: Object.fromEntries(shapes) }));
    renameSync(`${out}.tmp`, out); // the bench polls for the file: it must appear whole
  }, 10).unref();
}
