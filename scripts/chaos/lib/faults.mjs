// The faults of a chaos run: SIGKILLs of executors and of the scheduler leader, each restarted a little later,
// and SIGSTOPs of executors past the offline threshold, continued after it.
import { leaderPid } from './cluster.mjs';
import { log, sleep } from './run-util.mjs';

/**
 * Injects a fault every `o['kill-every']` s (±50 %, drawn from `o.rand`) until `until` (epoch ms): the leader's
 * SIGKILL with `o['leader-share']` while both schedulers are up, else an executor's SIGSTOP with
 * `o['stall-share']`, else its SIGKILL; one executor is always left serving.
 * @returns {{ events: { kills: number, executorKills: number, leaderKills: number, stalls: number },
 *   done: Promise<void> }} the counts so far, and the end of the loop and of every restart and SIGCONT it set
 */
export function injectFaults({ redis, namespace, env, schedulers, executors }, o, until) {
  const { rand, between } = o;
  const events = { kills: 0, executorKills: 0, leaderKills: 0, stalls: 0 };
  const restarts = new Set();
  const restartLater = (slot, ms) => {
    const p = sleep(ms)
      .then(() => slot.start())
      .catch((err) => log(`restart of ${slot.name} failed: ${err.message}`))
      .finally(() => restarts.delete(p));
    restarts.add(p);
  };

  const loop = (async () => {
    while (Date.now() < until) {
      await sleep(between(0.5, 1.5) * o['kill-every'] * 1000);
      if (Date.now() >= until) break;
      const pid = await leaderPid(redis, namespace);
      const leader = schedulers.find((s) => s.pid === pid && s.alive);
      const bothSchedulersUp = schedulers.every((s) => s.alive && !s.starting);
      if (leader && bothSchedulersUp && rand() < o['leader-share']) {
        await leader.kill();
        events.kills++;
        events.leaderKills++;
        log(`SIGKILL leader ${leader.name} (pid ${pid})`);
        restartLater(leader, between(300, 2500));
        continue;
      }
      const up = executors.filter((s) => s.alive && !s.starting && !s.stalled);
      if (up.length <= 1) continue; // keep one executor serving
      const victim = up[Math.floor(rand() * up.length)];
      if (rand() < o['stall-share']) {
        // SIGSTOP past the offline threshold: its work is taken away and re-run; after SIGCONT its late writes must lose.
        const ms = Number(env.NODE_OFFLINE_AFTER_MS) + between(1000, 3000);
        victim.stalled = true;
        victim.child.kill('SIGSTOP');
        events.stalls++;
        log(`SIGSTOP ${victim.name} for ${Math.round(ms)} ms`);
        const p = sleep(ms)
          .then(() => {
            victim.child?.kill('SIGCONT');
            victim.stalled = false;
          })
          .finally(() => restarts.delete(p));
        restarts.add(p);
        continue;
      }
      await victim.kill();
      events.kills++;
      events.executorKills++;
      log(`SIGKILL executor ${victim.name} (node ${victim.nodeName})`);
      restartLater(victim, between(300, 2500));
    }
  })();
  return { events, done: loop.then(() => Promise.all([...restarts])).then(() => undefined) };
}
