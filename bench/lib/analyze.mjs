// Turns the rows read back from job_instance into the benchmark's figures.
import { onGrid } from './mix.mjs';
import { distribution } from './stats.mjs';

/**
 * Firing figures of one run.
 * - release: when the stand-in executor (bench/lib/consumer.mjs) got the id, minus fire_time — the fire
 *   as an executor sees it (absent without the consumer); `unreleased` counts window rows it never got;
 * - lateness: created_at - fire_time per row (the product stamps created_at when it starts the page
 *   that writes the row, i.e. before its SELECT/UPDATE/INSERT/COMMIT; negative when staged ahead);
 * - wake: lateness of the first page of each fire second (loop wake-up + queue of earlier work);
 * - commit: per fire second, when the probe first saw all its rows committed, minus the second;
 * - pages: rows sharing one created_at are one page (one transaction); pageMs = spacing of pages
 *   within one fire second (time per page: SELECT + UPDATEs + INSERT + COMMIT + dispatch);
 * - lastPageToCommit: from the start of a second's last page to the probe seeing it committed.
 * @param {{rows: Array<{id: string, job_id: string, fire_time: number, created_at: number, trigger_source: string}>,
 *   grids: Map<string, {period: number, offset: number}>, slots: Map<number, number>, probeDoneAt: Map<number, number>, windowS: number,
 *   arrivals?: Map<string, number>}} input
 * @returns {Record<string, any>}
 */
export function analyze({ rows, grids, slots, probeDoneAt, windowS, arrivals }) {
  const release = [];
  const releaseBySlot = new Map(); // slot -> [first, last] arrival lateness
  let unreleased = 0;
  if (arrivals) {
    for (const r of rows) {
      const t = arrivals.get(r.id);
      if (t === undefined) {
        unreleased++;
        continue;
      }
      const late = t - r.fire_time;
      release.push(late);
      const span = releaseBySlot.get(r.fire_time);
      if (!span) releaseBySlot.set(r.fire_time, [late, late]);
      else [span[0], span[1]] = [Math.min(span[0], late), Math.max(span[1], late)];
    }
  }
  let expected = 0;
  for (const c of slots.values()) expected += c;
  const seen = new Set();
  let duplicates = 0;
  let wrongSlot = 0;
  let misfire = 0;
  const lateness = new Float64Array(rows.length);
  const bySlot = new Map(); // slot -> Map(created_at -> rows)
  const pageSizes = new Map(); // created_at -> rows
  rows.forEach((r, i) => {
    const key = `${r.job_id}|${r.fire_time}`;
    if (seen.has(key)) duplicates++;
    else seen.add(key);
    if (!onGrid(grids.get(r.job_id), r.fire_time)) wrongSlot++;
    if (r.trigger_source === 'MISFIRE') misfire++;
    lateness[i] = r.created_at - r.fire_time;
    let pages = bySlot.get(r.fire_time);
    if (!pages) bySlot.set(r.fire_time, (pages = new Map()));
    pages.set(r.created_at, (pages.get(r.created_at) ?? 0) + 1);
    pageSizes.set(r.created_at, (pageSizes.get(r.created_at) ?? 0) + 1);
  });
  const wake = [];
  const last = [];
  const pageGaps = [];
  let pagesTotal = 0;
  for (const [slot, pages] of bySlot) {
    const starts = [...pages.keys()].sort((a, b) => a - b);
    wake.push(starts[0] - slot);
    last.push(starts[starts.length - 1] - slot);
    pagesTotal += starts.length;
    for (let k = 1; k < starts.length; k++) pageGaps.push(starts[k] - starts[k - 1]);
  }
  const commit = [];
  const lastToCommit = [];
  const timeline = [];
  for (const slot of slots.keys()) {
    const t = probeDoneAt.get(slot);
    if (t !== undefined) commit.push(t - slot);
    const pages = bySlot.get(slot);
    const starts = pages ? [...pages.keys()].sort((a, b) => a - b) : [];
    if (t !== undefined && starts.length) lastToCommit.push(t - starts[starts.length - 1]);
    timeline.push({
      slot,
      rows: pages ? [...pages.values()].reduce((a, b) => a + b, 0) : 0,
      pages: starts.length,
      firstPage: starts.length ? starts[0] - slot : null,
      lastPage: starts.length ? starts[starts.length - 1] - slot : null,
      commit: t === undefined ? null : t - slot,
      release: releaseBySlot.get(slot) ?? null,
    });
  }
  const valid = seen.size - wrongSlot;
  return {
    expected,
    fires: rows.length,
    firesPerSec: rows.length / windowS,
    missing: Math.max(0, expected - valid),
    duplicates,
    wrongSlot,
    misfire,
    lateness: distribution(lateness),
    release: arrivals ? { ...distribution(release), unreleased } : null,
    wake: distribution(wake),
    lastPage: distribution(last),
    commit: { ...distribution(commit), slots: slots.size, probed: commit.length },
    pagesPerSlot: bySlot.size ? pagesTotal / bySlot.size : NaN,
    rowsPerPage: distribution([...pageSizes.values()]),
    pageMs: distribution(pageGaps),
    lastPageToCommit: distribution(lastToCommit),
    timeline,
  };
}
