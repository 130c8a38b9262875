import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { type TickwheelClient } from '../../src/client/tickwheel-client.js';
import { SHELL_UID_RANGE_DEFAULT } from '../../src/config/index.js';
import { WITH_SHELL } from '../utils/tenancy.js';
import {
  clusterEnv,
  executorsBeat,
  signedClient,
  startNode,
  type TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

/** Switching users needs root (CI runs as root); elsewhere this suite cannot be set up. */
const describeAsRoot = process.geteuid?.() === 0 ? describe : describe.skip;
const ENDED = ['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'];

interface Task {
  status: string;
  error?: string;
  result?: { stdout: string; stderr: string; exitCode: number | null };
}

/** Submits `/bin/sh -c script` as a shell task with `env`; returns its request id. */
async function shellTask(client: TickwheelClient, script: string, env: Record<string, string> = {}): Promise<string> {
  const requestId = `sh-${randomBytes(4).toString('hex')}`;
  const res = await client.submitTask({
    requestId,
    handler: 'shell',
    params: { argv: ['/bin/sh', '-c', script], env, timeoutMs: 30_000 },
    maxAttempts: 1,
  });
  expect(res.status).toBe(202);
  return requestId;
}

async function ended(client: TickwheelClient, requestId: string): Promise<Task> {
  let task = {} as Task;
  await waitFor(
    `shell task ${requestId} to end`,
    async () => ENDED.includes((task = (await client.getTask(requestId)).body as unknown as Task).status),
    30_000,
    50,
  );
  return task;
}

/** The process whose environment holds `marker` (this test runs as root and reads them all), and its uid. */
function processWith(marker: string): { pid: number; uid: number } | undefined {
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (!readFileSync(`/proc/${name}/environ`, 'latin1').includes(marker)) continue;
      const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${name}/status`, 'utf8'))?.[1];
      return { pid: Number(name), uid: Number(uid) };
    } catch {
      /* gone meanwhile */
    }
  }
  return undefined;
}

async function runningWith(marker: string): Promise<{ pid: number; uid: number }> {
  let found: { pid: number; uid: number } | undefined;
  await waitFor(`a process with ${marker}`, async () => (found = processWith(marker)) !== undefined, 30_000, 20);
  return found!;
}

/**
 * What app A's command tries against every other process: read each environment (`/proc/<pid>/environ`), read the
 * files others left in /tmp, and kill every `sleep` (the attack of issue 25: `pgrep -u 65534 sleep`, then
 * `tr "\0" "\n" </proc/$p/environ` and `pkill -u 65534 -x sleep`, with all apps' commands as uid 65534).
 */
const ATTACK = [
  'for d in /proc/[0-9]*; do { tr "\\0" "\\n" < $d/environ; } 2>/dev/null; done',
  'cat /tmp/tw-shell-sec-* 2>/dev/null',
  'for d in /proc/[0-9]*; do p=${d#/proc/}; [ "$(cat $d/comm 2>/dev/null)" = sleep ] || continue; ' +
    'echo "SAW $p"; kill -TERM $p 2>/dev/null && echo "KILLED $p"; kill -KILL $p 2>/dev/null && echo "KILLED $p"; done',
  'id -u; id -g',
].join('; ');

/**
 * `[shell]` (SECURITY.md "The shell handler", docs/tenancy.md "Shell isolation"): each app's shell commands run as a
 * uid and gid of its own, so another app's command can neither read their environment (params.env secrets), nor
 * read the files they create (umask 077), nor signal or trace them; commands of one app share its uid. One booted
 * cluster node (all roles, this root process as the executor).
 */
describeAsRoot('[shell] per-app identities (a hostile tenant with the shell scope)', () => {
  let node: TestNode;
  let a: TickwheelClient;
  let b: TickwheelClient;
  const { lo, hi } = SHELL_UID_RANGE_DEFAULT;
  const inRange = (uid: number) => expect(uid >= lo && uid <= hi).toBe(true);

  beforeAll(async () => {
    node = await startNode(clusterEnv(uniqueNamespace('e2e-shuid'), { TICKWHEEL_ALLOW_SHELL: 'true' }));
    const prefix = `shx${randomBytes(3).toString('hex')}`;
    [a, b] = await Promise.all([
      signedClient(node, `${prefix}-a`, WITH_SHELL),
      signedClient(node, `${prefix}-b`, WITH_SHELL),
    ]);
    await executorsBeat(node, 1);
  }, 60_000);
  afterAll(async () => node?.close());

  it("[shell] should not let app A read app B's params.env secret or files, nor kill B's running command", async () => {
    const secret = `b-secret-${randomBytes(8).toString('hex')}`;
    const file = `/tmp/tw-shell-sec-${randomBytes(4).toString('hex')}`;
    try {
      const bTask = await shellTask(b, `echo "$B_SECRET" > ${file}; exec sleep 4`, { B_SECRET: secret });
      const victim = await runningWith(secret);
      const attack = await ended(a, await shellTask(a, ATTACK));
      expect(attack.status).toBe('SUCCESS');
      const out = attack.result!.stdout;
      expect(out).toContain(`SAW ${victim.pid}`); // B's sleep was there to attack
      expect(JSON.stringify(attack)).not.toContain(secret);
      expect(out).not.toContain(`KILLED ${victim.pid}`);
      const [uidA, gidA] = out.trim().split('\n').slice(-2).map(Number);
      inRange(uidA);
      inRange(victim.uid);
      expect(uidA).not.toBe(victim.uid);
      expect(gidA).toBe(uidA);
      const bEnd = await ended(b, bTask);
      expect({ status: bEnd.status, error: bEnd.error }).toEqual({ status: 'SUCCESS', error: null });
    } finally {
      rmSync(file, { force: true });
    }
  }, 60_000);

  it('[shell] should run two commands of one app as the same uid, which can read each other (documented)', async () => {
    const secret = `a-own-${randomBytes(8).toString('hex')}`;
    const first = await shellTask(a, 'exec sleep 3', { A_SECRET: secret });
    const own = await runningWith(secret);
    const second = await ended(a, await shellTask(a, `tr "\\0" "\\n" < /proc/${own.pid}/environ; id -u`));
    expect(second.status).toBe('SUCCESS');
    expect(second.result!.stdout).toContain(`A_SECRET=${secret}`);
    expect(second.result!.stdout.trim().split('\n').pop()).toBe(String(own.uid));
    expect((await ended(a, first)).status).toBe('SUCCESS');
  }, 60_000);
});
