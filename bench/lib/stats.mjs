// Small statistics and formatting helpers for the trigger benchmark (no dependencies).

/**
 * Nearest-rank quantile of an ascending-sorted array (same rule as ../shared/peers/lib/common.js).
 * @param {ArrayLike<number>} sorted ascending values
 * @param {number} q quantile in [0, 1]
 * @returns {number} the value, or NaN for an empty array
 */
export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[idx];
}

/**
 * p50/p95/p99/max/min/mean of `values`.
 * @param {ArrayLike<number>} values samples (not modified)
 * @returns {{n:number,min:number,p50:number,p95:number,p99:number,max:number,mean:number}}
 */
export function distribution(values) {
  const s = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of s) sum += v;
  return {
    n: s.length,
    min: s.length ? s[0] : NaN,
    p50: quantile(s, 0.5),
    p95: quantile(s, 0.95),
    p99: quantile(s, 0.99),
    max: s.length ? s[s.length - 1] : NaN,
    mean: s.length ? sum / s.length : NaN,
  };
}

/**
 * Formats a number with `digits` decimals and thousands separators; n/a for NaN/undefined.
 * @param {number|undefined|null} x
 * @param {number} [digits]
 * @returns {string}
 */
export function fmt(x, digits = 0) {
  if (x === undefined || x === null || Number.isNaN(x)) return 'n/a';
  return Number(x).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/**
 * Prints `rows` (objects) as an aligned text table, columns in `columns` order.
 * @param {Array<Record<string, unknown>>} rows
 * @param {string[]} [columns]
 * @param {(line: string) => void} [out]
 */
export function printTable(rows, columns, out = console.log) {
  const cols = columns ?? Object.keys(rows[0] ?? {});
  const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (cells) => cells.map((c, i) => String(c ?? '').padStart(widths[i])).join('  ');
  out(line(cols));
  out(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) out(line(cols.map((c) => r[c])));
}

/**
 * Parses `--key value`, `--key=value`, bare `--flag`, `--flag false` and `--no-flag` into an object, typed after `defaults`
 * (numbers, booleans, number lists). Unknown keys are an error, so typos do not pass silently.
 * @param {Record<string, unknown>} defaults
 * @param {string[]} argv
 * @returns {Record<string, any>}
 */
export function parseArgs(defaults, argv) {
  const out = { ...defaults };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument '${a}'`);
    let [k, v] = a.slice(2).split(/=(.*)/s);
    if (!(k in defaults) && k.startsWith('no-') && typeof defaults[k.slice(3)] === 'boolean')
      [k, v] = [k.slice(3), 'false'];
    if (!(k in defaults))
      throw new Error(
        `unknown flag --${k} (known: ${Object.keys(defaults)
          .map((x) => `--${x}`)
          .join(' ')})`,
      );
    const d = defaults[k];
    if (v === undefined) {
      const next = argv[i + 1];
      if (next !== undefined && !next.startsWith('--') && (typeof d !== 'boolean' || /^(true|false|0|1)$/.test(next)))
        v = argv[++i];
      else v = 'true';
    }
    if (typeof d === 'number') out[k] = Number(v);
    else if (typeof d === 'boolean') out[k] = v === 'true' || v === '1';
    else if (Array.isArray(d)) out[k] = v.split(',').filter(Boolean).map(Number);
    else out[k] = v;
    if (typeof d === 'number' && !Number.isFinite(out[k])) throw new Error(`--${k} needs a number (got '${v}')`);
  }
  return out;
}

/**
 * {@link parseArgs} with the flags every product bench takes (--source auto, --json, --keep, --help, --db, --redis;
 * the servers default to BENCH_DB_URL / BENCH_REDIS_URL; `defaults` may override them); prints `help` and exits on
 * --help.
 * @param {Record<string, unknown>} defaults the bench's own flags
 * @param {string[]} argv
 * @param {string} help
 * @returns {Record<string, any>}
 */
export function parseBenchArgs(defaults, argv, help) {
  const args = parseArgs(
    {
      source: 'auto',
      json: false,
      keep: false,
      help: false,
      db: process.env.BENCH_DB_URL ?? 'mysql://root@127.0.0.1:3306/test',
      redis: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
      ...defaults,
    },
    argv,
  );
  if (args.help) {
    console.log(help);
    process.exit(0);
  }
  return args;
}
