// Kill-latency mode of the chaos check (issue 4 point 4): how long after an executor is SIGKILLed does the task
// it was running start again elsewhere (attempt + 1, a new fencing token)? Measured with the product's
// default lease settings (heartbeat 5 s, offline after 15 s, reconcile every 5 s) unless --env says otherwise.
import { join } from 'node:path';
import { distribution } from '../../../bench/lib/stats.mjs';

/**
 * Runs `o['kill-latency']` samples and prints one line with p50/p99; exit code 1 when p99 misses `o.target` s.
 * Each sample: submit a long task (an `http` call the receiver holds), wait until it runs on some executor,
 * wait a random 0-5 s (so kills land anywhere in the heartbeat and reconcile cycles), SIGKILL that executor
 * and start a new one in its slot, then wait for the receiver to see the task's next attempt. The task is
 * cancelled once measured. `o.parallel` > 1 runs samples at once on different executors: faster, but a task
 * may then be routed to another victim that is dead and not yet declared offline, which adds a whole cycle.
 * @returns {Promise<number>} exit code
 */
export async function runKillLatency(ctx, o) {
  const { db, namespace, env, slots, receiver } = ctx;
  const [api, ...executors] = slots;
  if (executors.length < o.parallel + 1)
    throw new Error(`--executors must exceed --parallel (${o.parallel}): someone has to take the task over`);
  await Promise.all(slots.map((s) => s.start()));
  const { appId, secret } = await o.apiClient(env, ctx.product);
  ctx.appId = appId;
  const { TickwheelClient } = await import(join(ctx.product, 'dist/src/client/tickwheel-client.js'));
  const client = new TickwheelClient({ baseUrl: `http://127.0.0.1:${api.port}`, appId, secret });
  const want = o['kill-latency'];
  const samples = [];
  const targeted = new Set();
  let seq = 0;

  /** Resolves with the side effect of `requestId` whose attempt is at least `attempt`. */
  const effectOf = (requestId, attempt) =>
    new Promise((resolve) => {
      const hit = receiver.log.find((e) => e.requestId === requestId && e.attempt >= attempt);
      if (hit) return resolve(hit);
      receiver.onEffect((e) => e.requestId === requestId && e.attempt >= attempt && resolve(e));
    });

  const track = async () => {
    while (samples.length < want) {
      const requestId = `kl-${namespace}-${seq++}`;
      const res = await client.submitTask({
        requestId,
        handler: 'http',
        params: { url: `${receiver.url}/hold/${requestId}`, timeoutMs: 600_000 },
        timeoutMs: 3_600_000,
        maxAttempts: 5,
      });
      if (res.status !== 202) throw new Error(`submit: ${res.status} ${JSON.stringify(res.body)}`);
      const first = await effectOf(requestId, 1);
      const [[row]] = await db.query(
        'SELECT node_id, attempt, fencing_token FROM job_instance WHERE namespace = ? AND request_id = ?',
        [namespace, requestId],
      );
      const slot = executors.find((s) => s.nodeName && String(row.node_id).startsWith(`${s.nodeName}-`));
      if (!slot || targeted.has(slot) || !slot.alive) {
        await client.request('POST', `/api/tasks/${requestId}/cancel`); // its node is already someone's victim: draw again
        continue;
      }
      targeted.add(slot);
      await new Promise((r) => setTimeout(r, o.between(0, 5000)));
      const killedAt = Date.now();
      await slot.kill();
      const restart = slot.start().then(
        () => null,
        (err) => err,
      );
      const again = await effectOf(requestId, first.attempt + 1);
      const ms = again.at - killedAt;
      if (!(again.token > first.token))
        throw new Error(`task ${requestId} restarted with fencing token ${again.token}, not above ${first.token}`);
      samples.push(ms);
      o.log(
        `sample ${samples.length}/${want}: ${(ms / 1000).toFixed(2)} s (attempt ${first.attempt} -> ${again.attempt}, token ${first.token} -> ${again.token})`,
      );
      await client.request('POST', `/api/tasks/${requestId}/cancel`);
      const failed = await restart;
      if (failed) throw failed;
      targeted.delete(slot);
    }
  };
  await Promise.all(Array.from({ length: o.parallel }, track));

  const d = distribution(samples.map((ms) => ms / 1000));
  const s = (x) => `${x.toFixed(2)}s`;
  const ok = d.p99 <= o.target;
  const settings = ['HEARTBEAT_INTERVAL_MS', 'NODE_OFFLINE_AFTER_MS', 'RECONCILE_INTERVAL_MS', 'LEASE_MS']
    .map((k) => `${k}=${env[k] ?? 'default'}`)
    .join(' ');
  console.log(
    `kill-latency: ${ok ? 'OK' : 'FAIL'} n=${d.n} p50=${s(d.p50)} p99=${s(d.p99)} min=${s(d.min)} max=${s(d.max)} mean=${s(d.mean)} ` +
      `(target p99 <= ${o.target}s) ${settings} seed=${o.seed}`,
  );
  return ok ? 0 : 1;
}
