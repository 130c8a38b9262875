// One measurement of the client benchmark (bench/client-bench.mjs), in a process of its own: `op` (submit, get,
// batch) `n` times through client `kind` (tw: TickwheelClient, typed: createTickwheelClient, cheap: the bench's own
// node:http client) of the bundle `bundle`, `inFlight` at once, after a warm-up of 1,000. Prints one JSON line.
import { pathToFileURL } from 'node:url';
import { submitSingleCheap } from './submit.mjs';

const [bundle, kind, baseUrl, op, n, inFlight, batchSize] = process.argv.slice(2);
const N = Number(n);
const target = { baseUrl, appId: 'bench-app', secret: 'bench-secret-0123456789' };
const task = (i) => ({ requestId: `r-${process.pid}-${i}`, handler: 'noop' });

/** The call for request i of `op` through `kind`. */
async function caller() {
  if (kind === 'cheap') return null;
  const m = await import(pathToFileURL(bundle).href);
  const size = Number(batchSize);
  const batch = (i) => Array.from({ length: size }, (_, j) => task(i * size + j));
  if (kind === 'typed') {
    const c = m.createTickwheelClient({ ...target, retries: 0 });
    if (op === 'submit') return (i) => c.POST('/api/tasks', { body: task(i) });
    if (op === 'batch') return (i) => c.POST('/api/tasks/batch', { body: { tasks: batch(i) } });
    return (i) => c.GET('/api/tasks/{requestId}', { params: { path: { requestId: `r-${i}` } } });
  }
  const c = new m.TickwheelClient(target);
  if (op === 'submit') return (i) => c.submitTask(task(i));
  if (op === 'batch') return (i) => c.submitTasks(batch(i));
  return (i) => c.getTask(`r-${i}`);
}

/** Runs `call(i)` for i in [from, from + count), `inFlight` at once; throws on an answer that is not 2xx. */
async function pooled(call, from, count) {
  let next = from;
  const lanes = Array.from({ length: Number(inFlight) }, async () => {
    while (next < from + count) {
      const r = await call(next++);
      const status = r.status ?? r.response?.status;
      if (status < 200 || status > 299) throw new Error(`answer ${status}`);
    }
  });
  await Promise.all(lanes);
}

const call = await caller();
let cpu;
let t0;
if (call === null) {
  if (op !== 'submit') throw new Error('cheap: submit only');
  await submitSingleCheap(
    target,
    Array.from({ length: 1000 }, (_, i) => task(-i - 1)),
    Number(inFlight),
  );
  t0 = performance.now();
  const r = await submitSingleCheap(
    target,
    Array.from({ length: N }, (_, i) => task(i)),
    Number(inFlight),
  );
  cpu = r.clientCpuUsPerRequest * N;
} else {
  await pooled(call, -1000, 1000);
  t0 = performance.now();
  const c0 = process.cpuUsage();
  await pooled(call, 0, N);
  const c = process.cpuUsage(c0);
  cpu = c.user + c.system;
}
const ms = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ cpuUsPerRequest: cpu / N, perSec: (N * 1000) / ms })}\n`);
process.exit(0);
