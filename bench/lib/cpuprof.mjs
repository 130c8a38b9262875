// Summarises a V8 .cpuprofile (node --cpu-prof) over a time window: self time by package/file and by function.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

function bucketOf(url, fn) {
  if (!url) return fn.startsWith('(') ? fn : '(native/internal)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 13).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url;
  const src = url.indexOf('/dist/src/');
  return src >= 0 ? `tickwheel ${url.slice(src + 10)}` : url.replace(/^file:\/\//, '');
}

/**
 * Reads the newest .cpuprofile in `dir` and sums self CPU time of samples whose (epoch) time falls in
 * [fromMs, toMs). The profile's clock is mapped to epoch by assuming its last sample is at `endEpochMs`
 * (the moment the process was stopped), so the window edges are good to a few tens of ms.
 * @param {string} dir the --cpu-prof-dir
 * @param {number} fromMs epoch ms
 * @param {number} toMs epoch ms
 * @param {number} endEpochMs epoch ms when the profiled process exited
 * @returns {{totalMs: number, byBucket: Array<{what: string, ms: number, pct: number}>, byFunction: Array<{what: string, ms: number, pct: number}>}|null}
 */
export function summariseProfile(dir, fromMs, toMs, endEpochMs, top = 15) {
  if (!existsSync(dir)) return null; // the process did not exit normally (e.g. SIGKILL after a hung shutdown)
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort();
  if (files.length === 0) return null;
  const p = JSON.parse(readFileSync(join(dir, files[files.length - 1]), 'utf8'));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const bucket = new Map();
  const func = new Map();
  let ts = p.startTime;
  const offset = endEpochMs - p.endTime / 1000;
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    ts += p.timeDeltas[i];
    const epoch = ts / 1000 + offset;
    const dt = (p.timeDeltas[i + 1] ?? 0) / 1000;
    if (epoch < fromMs || epoch >= toMs) continue;
    const node = byId.get(p.samples[i]);
    const cf = node.callFrame;
    if (cf.functionName === '(idle)') continue;
    const b = bucketOf(cf.url, cf.functionName || '(anonymous)');
    bucket.set(b, (bucket.get(b) ?? 0) + dt);
    const f = `${cf.functionName || '(anonymous)'} ${b}:${cf.lineNumber + 1}`;
    func.set(f, (func.get(f) ?? 0) + dt);
    total += dt;
  }
  const rank = (m) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([what, ms]) => ({ what, ms, pct: (100 * ms) / total }));
  return { totalMs: total, byBucket: rank(bucket), byFunction: rank(func) };
}
