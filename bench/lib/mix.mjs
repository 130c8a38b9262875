// Job mixes of the trigger benchmark. Every bench job fires on a fixed UTC grid: at the instants t with
// t mod period = offset (ms). `uniform` is the original case (every job once a minute, at second i % 60);
// `big` is a big installation: most jobs hourly or daily, spread over the hour / day, and a small share
// firing every minute or second so that every second of a window has fires to measure.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The `big` mix, in this order by job index (shares of N; the last kind takes the rest). For N = 1,000,000:
 * 500,000 daily (5.8 fires/s), 450,000 hourly (125 fires/s), 49,900 each minute (832 fires/s), 100 each second
 * (100 fires/s): about 1,060 fires a second.
 */
export const BIG_MIX = [
  { kind: 'daily', share: 0.5, period: DAY },
  { kind: 'hourly', share: 0.45, period: HOUR },
  { kind: 'minutely', share: 0.0499, period: MINUTE },
  { kind: 'secondly', share: 0.0001, period: SECOND },
];

/** The mixes `--mix` accepts. */
export const MIXES = ['uniform', 'big'];

/** Non-negative remainder. */
export const mod = (a, b) => ((a % b) + b) % b;

/**
 * The schedule of job `i` of `n` in `mix`: its 6-field cron (UTC) and the grid it fires on.
 * `big`: within a kind the k-th job's offset is k seconds into its period (wrapping), so the kind is spread
 * evenly over every second of the hour / day (no herd at :00; the uniform mix measures herds of N/60 a second).
 * @param {'uniform'|'big'} mix
 * @param {number} i job index, 0 ≤ i < n
 * @param {number} n jobs in the case
 * @returns {{expr: string, period: number, offset: number, kind: string}}
 * @throws Error for an unknown mix
 */
export function scheduleOf(mix, i, n) {
  if (mix === 'uniform') return cronAt('minutely', i % 60);
  if (mix !== 'big') throw new Error(`unknown --mix '${mix}' (known: ${MIXES.join(', ')})`);
  let first = 0;
  for (let k = 0; k < BIG_MIX.length; k++) {
    const size = k === BIG_MIX.length - 1 ? n - first : Math.round(BIG_MIX[k].share * n);
    if (i < first + size) return cronAt(BIG_MIX[k].kind, (i - first) % (BIG_MIX[k].period / SECOND));
    first += size;
  }
  throw new Error(`job ${i} is outside 0..${n - 1}`);
}

/** Jobs per kind of `mix` at size `n` (what the report prints). */
export function mixCounts(mix, n) {
  const counts = {};
  for (let i = 0; i < n; i++) {
    const k = scheduleOf(mix, i, n).kind;
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}

/** Cron `S M H * * *` (with `*` for the fields the kind repeats) firing `sec` seconds into its period. */
function cronAt(kind, sec) {
  const s = sec % 60;
  const m = Math.floor(sec / 60) % 60;
  const h = Math.floor(sec / 3600);
  switch (kind) {
    case 'secondly':
      return { kind, expr: '* * * * * *', period: SECOND, offset: 0 };
    case 'minutely':
      return { kind, expr: `${s} * * * * *`, period: MINUTE, offset: s * SECOND };
    case 'hourly':
      return { kind, expr: `${s} ${m} * * * *`, period: HOUR, offset: s * SECOND + m * MINUTE };
    default:
      return { kind, expr: `${s} ${m} ${h} * * *`, period: DAY, offset: sec * SECOND };
  }
}

/**
 * Expected fires per second-slot of [start, end): slot epoch ms -> jobs due then.
 * @param {Map<string, {period: number, offset: number}>} grids job id -> its grid
 * @param {number} start epoch ms, whole second
 * @param {number} end epoch ms, exclusive
 * @returns {Map<number, number>}
 */
export function expectedSlots(grids, start, end) {
  const slots = new Map();
  for (const { period, offset } of grids.values())
    for (let t = start + mod(offset - start, period); t < end; t += period) slots.set(t, (slots.get(t) ?? 0) + 1);
  return new Map([...slots].sort((a, b) => a[0] - b[0]));
}

/** Whether `fireTime` lies on the grid of `grid` (undefined: an unknown job). */
export function onGrid(grid, fireTime) {
  return grid !== undefined && mod(fireTime - grid.offset, grid.period) === 0;
}

/**
 * Enables the jobs of `namespace` (codes `bench-0000000` … in order) in UPDATEs of `chunk` rows by code range,
 * each with next_fire_time = the first instant of its grid strictly after `base`; the grid is read from the
 * description `<period> <offset>` that registerJobs wrote. Short transactions: 1,000,000 rows in one UPDATE
 * would hold a huge undo log.
 * @param {import('mysql2/promise').Pool} pool
 * @param {string} namespace
 * @param {number} n jobs
 * @param {number} base epoch ms
 * @returns {Promise<number>} rows enabled
 */
export async function enableByGrid(pool, namespace, n, base, chunk = 20000) {
  const period = "CAST(SUBSTRING_INDEX(description, ' ', 1) AS SIGNED)";
  const offset = "CAST(SUBSTRING_INDEX(description, ' ', -1) AS SIGNED)";
  let enabled = 0;
  for (let i0 = 0; i0 < n; i0 += chunk) {
    const [res] = await pool.query(
      `UPDATE job_definition SET enabled = 1, next_fire_time = ? + ${period} - MOD(? - ${offset}, ${period})
        WHERE namespace = ? AND app_id = '' AND code >= ? AND code <= ?`,
      [base, base, namespace, benchCode(i0), benchCode(Math.min(n, i0 + chunk) - 1)],
    );
    enabled += res.affectedRows;
  }
  return enabled;
}

/** The code of bench job `i`: zero-padded, so codes sort as the indexes do. */
export function benchCode(i) {
  return `bench-${String(i).padStart(7, '0')}`;
}
