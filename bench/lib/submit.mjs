// The submit side of the dispatch benchmark: signed POST /api/tasks one per task with a bounded number in
// flight, or POST /api/tasks/batch in chunks. Records every refusal instead of retrying, so a task that
// was not accepted counts as not submitted (and, if it has no row, as lost). `--rate` sends single submits
// open loop at a fixed rate and times each answer (submitAtRate).
import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import { distribution } from './stats.mjs';

/**
 * Runs `worker(i)` for i in [0, n) with at most `inFlight` calls pending at once.
 * @param {number} n
 * @param {number} inFlight
 * @param {(i: number) => Promise<void>} worker
 */
async function pooled(n, inFlight, worker) {
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(inFlight, n)) }, async () => {
    while (next < n) await worker(next++);
  });
  await Promise.all(lanes);
}

/**
 * Submits `tasks` one signed POST /api/tasks each, `inFlight` at a time.
 * @param {{submitTask: (t: object) => Promise<{status: number, body: any}>}} client TickwheelClient
 * @param {object[]} tasks bodies of POST /api/tasks
 * @param {number} inFlight
 * @returns {Promise<{accepted: number, refused: Array<{requestId: string, status: number|string, detail: string}>, requests: number}>}
 */
export async function submitSingle(client, tasks, inFlight) {
  let accepted = 0;
  const refused = [];
  await pooled(tasks.length, inFlight, async (i) => {
    try {
      const r = await client.submitTask(tasks[i]);
      if (r.status === 202) accepted++;
      else
        refused.push({ requestId: tasks[i].requestId, status: r.status, detail: JSON.stringify(r.body).slice(0, 200) });
    } catch (err) {
      refused.push({ requestId: tasks[i].requestId, status: 'network', detail: err.message });
    }
  });
  return { accepted, refused, requests: tasks.length };
}

/**
 * Submits `tasks` through POST /api/tasks/batch, `size` per request, `inFlight` requests at a time.
 * A refused request refuses all its tasks; an item with `error` refuses that task only.
 * @param {{submitTasks: (t: object[]) => Promise<{status: number, body: any}>}} client TickwheelClient
 * @returns {Promise<{accepted: number, refused: Array<{requestId: string, status: number|string, detail: string}>, requests: number, requestMs: number[]}>}
 */
export async function submitBatch(client, tasks, size, inFlight) {
  const chunks = [];
  for (let i = 0; i < tasks.length; i += size) chunks.push(tasks.slice(i, i + size));
  let accepted = 0;
  const refused = [];
  const requestMs = [];
  await pooled(chunks.length, inFlight, async (k) => {
    const chunk = chunks[k];
    const t = Date.now();
    try {
      const r = await client.submitTasks(chunk);
      requestMs.push(Date.now() - t);
      if (r.status !== 202) {
        for (const task of chunk)
          refused.push({ requestId: task.requestId, status: r.status, detail: JSON.stringify(r.body).slice(0, 200) });
        return;
      }
      r.body.results.forEach((item, j) => {
        if ('error' in item)
          refused.push({ requestId: chunk[j].requestId, status: item.error.status, detail: item.error.detail });
        else accepted++;
      });
    } catch (err) {
      for (const task of chunk) refused.push({ requestId: task.requestId, status: 'network', detail: err.message });
    }
  });
  return { accepted, refused, requests: chunks.length, requestMs };
}

/**
 * Open-loop submit (`--rate`): sends task i at t0 + i / rate seconds, one signed POST /api/tasks each through
 * {@link cheapSender}, whatever is still in flight, and times each from the moment it is handed to the socket to the
 * end of its answer. A send that is late (the harness fell behind its schedule) is sent at once; `lagMs` says by how much.
 * @param {{baseUrl: string, appId: string, secret: string}} target
 * @param {object[]} tasks bodies of POST /api/tasks
 * @param {number} rate requests per second
 * @returns {Promise<{accepted: number, refused: Array<{requestId: string, status: number|string, detail: string}>, requests: number,
 *   rate: {target: number, sentPerSec: number, answeredPerSec: number, held: boolean, latencyMs: object, lagMs: object, maxInFlight: number, clientCpuUsPerRequest: number}}>}
 */
export async function submitAtRate(target, tasks, rate) {
  const n = tasks.length;
  const latency = new Float64Array(n);
  const lag = new Float64Array(n);
  let inFlight = 0;
  let maxInFlight = 0;
  let lastAnswer = 0;
  let lastSend = 0;
  const cpu0 = process.cpuUsage();
  const sender = cheapSender(target, tasks);
  const { refused, agent } = sender;
  const send = (i, sentAt) => {
    inFlight++;
    if (inFlight > maxInFlight) maxInFlight = inFlight;
    return sender.send(i).then(() => {
      inFlight--;
      lastAnswer = performance.now();
      latency[i] = lastAnswer - sentAt;
    });
  };
  const pending = [];
  const interval = 1000 / rate;
  const t0 = performance.now();
  await new Promise((resolve) => {
    let i = 0;
    const tick = () => {
      const now = performance.now();
      const due = Math.min(n, Math.floor((now - t0) / interval) + 1);
      for (; i < due; i++) {
        lag[i] = now - (t0 + i * interval);
        pending.push(send(i, performance.now()));
      }
      lastSend = now;
      if (i < n) setTimeout(tick, Math.max(0, t0 + i * interval - performance.now()));
      else resolve();
    };
    tick();
  });
  await Promise.all(pending);
  const cpu = process.cpuUsage(cpu0);
  agent.destroy();
  const sentPerSec = n > 1 ? ((n - 1) * 1000) / Math.max(1e-3, lastSend - t0) : rate;
  const answeredPerSec = (n * 1000) / Math.max(1e-3, lastAnswer - t0);
  const latencyMs = distribution(latency);
  const lagMs = distribution(lag);
  return {
    accepted: sender.accepted(),
    refused,
    requests: n,
    rate: {
      target: rate,
      sentPerSec,
      answeredPerSec,
      // Held: sent on schedule (within 2 %, no send more than 50 ms late) and answered as fast as sent.
      held: sentPerSec >= 0.98 * rate && lagMs.max <= 50 && answeredPerSec >= 0.98 * Math.min(sentPerSec, rate),
      latencyMs,
      lagMs,
      maxInFlight,
      clientCpuUsPerRequest: (cpu.user + cpu.system) / n,
    },
  };
}

/**
 * The cheap signed client of `submitAtRate` and `submitSingleCheap`: node:http with keep-alive connections (at most
 * 256), bodies and their SHA-256 prepared up front, nonces from a random prefix and a counter, one Hmac per request
 * (2.3 µs here; hashing prepared key pads measured slower, 3.2 µs). `send(i)` resolves once task i is answered;
 * a refusal is recorded in `refused`, never retried.
 */
function cheapSender(target, tasks) {
  const url = new URL(target.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const sign = (message) => createHmac('sha256', target.secret).update(message).digest('hex');
  const prep = tasks.map((t) => {
    const body = JSON.stringify(t);
    return { body, length: String(Buffer.byteLength(body)), hash: createHash('sha256').update(body).digest('hex') };
  });
  const noncePrefix = randomBytes(8).toString('hex');
  const refused = [];
  let accepted = 0;
  const send = (i) => {
    const p = prep[i];
    const ts = String(Date.now());
    const nonce = noncePrefix + i.toString(36).padStart(4, '0');
    const signature = sign(`TW2\n${target.appId}\nPOST\n/api/tasks\n${ts}\n${nonce}\n${p.hash}`);
    return new Promise((resolve) => {
      const done = (status, detail) => {
        if (status === 202) accepted++;
        else refused.push({ requestId: tasks[i].requestId, status, detail: detail.slice(0, 200) });
        resolve();
      };
      const req = http.request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/api/tasks',
          headers: {
            'content-type': 'application/json',
            'content-length': p.length,
            'x-app-id': target.appId,
            'x-timestamp': ts,
            'x-nonce': nonce,
            'x-signature': `v2=${signature}`,
          },
        },
        (res) => {
          if (res.statusCode === 202) {
            res.resume();
            res.on('end', () => done(202, ''));
            return;
          }
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (text += c));
          res.on('end', () => done(res.statusCode, text));
        },
      );
      req.on('error', (err) => done('network', err.message));
      req.end(p.body);
    });
  };
  return { send, refused, agent, accepted: () => accepted };
}

/**
 * Closed-loop single submits (`--client cheap`, the default) with {@link cheapSender}: `inFlight` requests pending
 * at once, each task one signed POST /api/tasks, as submitSingle does with the product's TickwheelClient.
 * @param {{baseUrl: string, appId: string, secret: string}} target
 * @returns {Promise<{accepted: number, refused: Array<{requestId: string, status: number|string, detail: string}>, requests: number, clientCpuUsPerRequest: number}>}
 */
export async function submitSingleCheap(target, tasks, inFlight) {
  const cpu0 = process.cpuUsage();
  const sender = cheapSender(target, tasks);
  await pooled(tasks.length, inFlight, (i) => sender.send(i));
  sender.agent.destroy();
  const cpu = process.cpuUsage(cpu0);
  return {
    accepted: sender.accepted(),
    refused: sender.refused,
    requests: tasks.length,
    clientCpuUsPerRequest: (cpu.user + cpu.system) / tasks.length,
  };
}
