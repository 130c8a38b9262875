import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TickwheelClient } from '../../src/client/tickwheel-client.js';
import { SHELL_UID_RANGE_DEFAULT } from '../../src/config/index.js';
import { NodeRegistryService } from '../../src/modules/dispatch/index.js';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { processGone } from '../utils/pid.js';
import { ProductProcess, startProcess } from '../utils/process-node.js';
import { runNode } from '../utils/run-node.js';
import {
  clusterEnv,
  MYSQL_URL,
  REDIS_URL,
  signedClient,
  startNode,
  TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';

const MAIN = join(process.cwd(), 'dist/src/main.js');
const NOBODY = 65534;
/** A command's uid: its app's own, from TICKWHEEL_SHELL_UID_RANGE's default. */
const inRange = (uid: string | undefined) =>
  expect(Number(uid) >= SHELL_UID_RANGE_DEFAULT.lo && Number(uid) <= SHELL_UID_RANGE_DEFAULT.hi).toBe(true);
const ROOT = process.geteuid?.() === 0;
/** Switching users needs root (CI runs as root); elsewhere these cases cannot be set up. */
const describeAsRoot = ROOT ? describe : describe.skip;
/** What the executor's secrets must never show up in: its environment through /proc, and every readable environ. */
const PROBE = 'cat /proc/$PPID/environ; cat /proc/*/environ 2>/dev/null; id -u';

interface ShellResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
}

/** Submits a shell task running `/bin/sh -c script` and waits for its end; returns its status and result. */
async function runShellTask(client: TickwheelClient, script: string): Promise<{ status: string; result: ShellResult }> {
  const requestId = `sh-${randomBytes(4).toString('hex')}`;
  const res = await client.submitTask({
    requestId,
    handler: 'shell',
    params: { argv: ['/bin/sh', '-c', script], timeoutMs: 20_000 },
    maxAttempts: 1,
  });
  expect(res.status).toBe(202);
  let task: Record<string, unknown> = {};
  await waitFor(
    `shell task ${requestId} to end`,
    async () => {
      task = (await client.getTask(requestId)).body;
      return ['SUCCESS', 'FAILED', 'TIMEOUT', 'CANCELLED'].includes(String(task.status));
    },
    30_000,
    100,
  );
  return { status: String(task.status), result: task.result as ShellResult };
}

/**
 * The built-in shell handler's privileges (docs/tenancy.md "Shell isolation"), with real executor processes started
 * from dist/ as root: a command runs as its app's own uid, cannot read the executor's secrets (its /proc environ, the standalone
 * DATA_DIR), and leaves nothing running behind it; a non-root executor refuses to allow shell unless
 * TICKWHEEL_SHELL_UNISOLATED=true.
 */
describeAsRoot('shell handler isolation (real processes)', () => {
  describe('cluster shape: an executor process with the secrets in its environment', () => {
    const ns = uniqueNamespace('e2e-shell');
    const secretKey = randomBytes(32).toString('hex');
    let api: TestNode;
    let client: TickwheelClient;
    let executor: ProductProcess;

    beforeAll(async () => {
      api = await startNode(clusterEnv(ns, { ROLES: 'api,scheduler', TICKWHEEL_SECRET_KEY: secretKey }));
      client = await signedClient(api, undefined, [...DEFAULT_SCOPES, Scope.SHELL]); // shell work needs the shell scope
      executor = startProcess(
        clusterEnv(ns, {
          ROLES: 'executor',
          PORT: '0',
          NODE_NAME: 'shx',
          TICKWHEEL_ALLOW_SHELL: 'true',
          TICKWHEEL_SECRET_KEY: secretKey,
        }),
      );
      const registry = api.app.get(NodeRegistryService);
      await waitFor(
        'the shell executor to beat',
        async () => (await registry.liveNodes()).some((n) => n.nodeId.startsWith('shx-')),
        30_000,
      );
    }, 60_000);

    afterAll(async () => {
      await executor?.stop(5000);
      await api?.close();
    });

    it("should run a command as its app's uid that finds none of the executor secrets in any environment it can read", async () => {
      const { status, result } = await runShellTask(client, PROBE);
      expect(status).toBe('SUCCESS');
      const all = JSON.stringify(result); // the whole stored result: an output over its bound is kept as an excerpt
      for (const secret of [secretKey, MYSQL_URL, REDIS_URL]) expect(all).not.toContain(secret);
      expect(all).not.toMatch(/TICKWHEEL_SECRET_KEY|DB_URL|REDIS_URL/);
      expect(result.stderr).toMatch(/environ: Permission denied/);
      inRange(result.stdout.trim().split(/\0|\n/).pop());
    }, 60_000);

    it('should leave nothing the command started in the background running once the task ends', async () => {
      const { status, result } = await runShellTask(client, 'sleep 300 & echo $!');
      expect(status).toBe('SUCCESS');
      const pid = Number(result.stdout.trim());
      expect(pid).toBeGreaterThan(1);
      await waitFor(`background sleep ${pid} to be gone`, async () => processGone(pid), 5000, 20);
    }, 60_000);
  });

  describe('standalone shape: the secret key lives in DATA_DIR', () => {
    let dataDir: string;
    let node: ProductProcess;
    let client: TickwheelClient;

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'tw-shell-standalone-'));
      chmodSync(dataDir, 0o755); // as an operator's mkdir leaves it: the executor must close it
      node = startProcess({ DATA_DIR: dataDir, PORT: '0', TICKWHEEL_ALLOW_SHELL: 'true' });
      await waitFor(
        'the standalone process to listen',
        async () => /listening on http:\/\/localhost:\d+/.test(node.output()),
        30_000,
      );
      await waitFor(
        'credentials.json',
        async () => statSync(join(dataDir, 'credentials.json'), { throwIfNoEntry: false }) !== undefined,
        10_000,
      );
      const port = /listening on http:\/\/localhost:(\d+)/.exec(node.output())?.[1];
      const creds = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as {
        appId: string;
        secret: string;
      };
      client = new TickwheelClient({ baseUrl: `http://127.0.0.1:${port}`, appId: creds.appId, secret: creds.secret });
    }, 60_000);

    afterAll(async () => {
      await node?.stop(5000);
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('should keep the secret key, the credentials and the database out of reach of a command', async () => {
      const key = readFileSync(join(dataDir, 'secret.key'), 'utf8').trim();
      const files = ['secret.key', 'credentials.json', 'tickwheel.sqlite'];
      const script = `for f in ${files.join(' ')}; do if cat "${dataDir}/$f"; then echo "READ $f"; else echo "DENIED $f"; fi; done; id -u`;
      const { status, result } = await runShellTask(client, script);
      expect(status).toBe('SUCCESS');
      expect(JSON.stringify(result)).not.toContain(key);
      for (const f of files) expect(result.stdout).toContain(`DENIED ${f}`);
      expect(statSync(dataDir).mode & 0o777).toBe(0o700);
      expect(result.stdout.trim().split(/\0|\n/).pop()).toBe(String(SHELL_UID_RANGE_DEFAULT.lo)); // a new database
    }, 60_000);
  });

  describe('an executor that is not root', () => {
    let dataDir: string;
    beforeAll(() => {
      dataDir = mkdtempSync(join(tmpdir(), 'tw-shell-nonroot-'));
      chownSync(dataDir, NOBODY, NOBODY);
    });
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
    const asNobody = { uid: NOBODY, gid: NOBODY };

    it('should refuse to start with TICKWHEEL_ALLOW_SHELL=true, saying why and naming the opt-in', async () => {
      const r = await runNode(
        MAIN,
        [],
        { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', TICKWHEEL_ALLOW_SHELL: 'true' },
        { ...asNobody, cwd: dataDir, timeoutMs: 30_000 },
      );
      expect({ code: r.code, signal: r.signal }).toEqual({ code: 2, signal: null });
      expect(r.stderr).toContain(
        `Invalid setting TICKWHEEL_ALLOW_SHELL: this executor runs as uid ${NOBODY}, not root`,
      );
      expect(r.stderr).toMatch(/read its environment .*and memory/);
      expect(r.stderr).toContain('TICKWHEEL_SHELL_UNISOLATED=true');
      expect(r.stdout).not.toContain('listening');
    }, 40_000);

    it('should start with TICKWHEEL_SHELL_UNISOLATED=true, with a warning', async () => {
      const p = startProcess(
        { DATA_DIR: dataDir, PORT: '0', TICKWHEEL_ALLOW_SHELL: 'true', TICKWHEEL_SHELL_UNISOLATED: 'true' },
        asNobody,
      );
      try {
        await waitFor('the unisolated process to listen', async () => p.output().includes('listening on'), 30_000);
        expect(p.output()).toContain(
          `TICKWHEEL_SHELL_UNISOLATED=true: shell commands run as uid ${NOBODY} and can read this process's environment`,
        );
      } finally {
        await p.stop(5000);
      }
    }, 40_000);
  });
});
