import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { type NodeExit, runNode } from '../utils/run-node.js';
import { clusterEnv, REDIS_URL, uniqueNamespace } from '../utils/test-node.js';

const ROOT = process.cwd();
const MAIN = join(ROOT, 'dist/src/main.js');
/** Sources the start-up path under test compiles from; dist older than any of them is rebuilt. */
const SOURCES = [
  join(ROOT, 'src/main.ts'),
  ...readdirSync(join(ROOT, 'src/config'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(ROOT, 'src/config', f)),
];
/** Runs `node dist/src/main.js` with the given settings (in `dataDir`); killed after 20 s so a regression cannot hang the suite. */
function runMain(settings: Record<string, string>, dataDir: string): Promise<NodeExit> {
  return runNode(MAIN, [], { DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...settings }, { cwd: dataDir });
}

describe('start-up path (node dist/src/main.js) reports a bad setting', () => {
  let dataDir: string;

  beforeAll(() => {
    const stale = !existsSync(MAIN) || SOURCES.some((f) => statSync(f).mtimeMs > statSync(MAIN).mtimeMs);
    if (stale) {
      try {
        execSync('npm run build', { cwd: ROOT, stdio: 'pipe' });
      } catch (err) {
        const e = err as { stdout?: Buffer; stderr?: Buffer };
        throw new Error(
          `dist/src/main.js is missing or older than src/config, and npm run build failed:\n${String(e.stdout ?? '')}${String(e.stderr ?? '')}`,
          { cause: err },
        );
      }
    }
    dataDir = mkdtempSync(join(tmpdir(), 'tw-startup-'));
  }, 180_000);

  afterAll(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Asserts a clean configuration failure: exit code 2, one line naming `setting`, no stack trace, never listening. */
  function expectConfigExit(r: NodeExit, setting: string): void {
    expect({ code: r.code, signal: r.signal, stderr: r.stderr }).toMatchObject({ code: 2, signal: null });
    expect(r.stderr).toContain(`Invalid setting ${setting}:`);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.stdout).not.toContain('listening');
  }

  it('should exit 2 naming PORT for PORT=abc, saying an integer is wanted', async () => {
    const r = await runMain({ PORT: 'abc' }, dataDir);
    expectConfigExit(r, 'PORT');
    expect(r.stderr).toMatch(/integer/);
    expect(r.stderr).toContain("'abc'");
  }, 30_000);

  it('should exit 2 naming PORT for PORT=70000', async () => {
    const r = await runMain({ PORT: '70000' }, dataDir);
    expectConfigExit(r, 'PORT');
    expect(r.stderr).toMatch(/65535/);
  }, 30_000);

  it('should exit 2 naming REDIS_URL when DB_URL is set alone', async () => {
    expectConfigExit(await runMain({ PORT: '0', DB_URL: 'mysql://root@127.0.0.1:3306/test' }, dataDir), 'REDIS_URL');
  }, 30_000);

  it('should exit 2 naming ROLES for a split of roles in the standalone shape', async () => {
    expectConfigExit(await runMain({ PORT: '0', ROLES: 'executor' }, dataDir), 'ROLES');
  }, 30_000);

  it('should create nothing in DATA_DIR when the settings are refused', () => {
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describe('start-up path (node dist/src/main.js) on a port already taken', () => {
  const ns = uniqueNamespace('e2e-port');
  let taken: Server;
  let port: number;
  let redis: Redis;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    port = (taken.address() as AddressInfo).port;
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    await new Promise((r) => taken.close(r));
    redis.disconnect();
  });

  it('should exit 2 with one line naming the port, and leave no executor registered to be given work (it stayed live 15 s)', async () => {
    const r = await runNode(
      MAIN,
      [],
      { ...clusterEnv(ns, { ROLES: 'executor', HOST: '127.0.0.1', PORT: String(port), NODE_NAME: 'ghost' }) },
      { timeoutMs: 30_000 },
    );
    expect({ code: r.code, signal: r.signal }).toEqual({ code: 2, signal: null });
    expect(r.stderr.trim().split('\n').pop()).toBe(
      `tickwheel: cannot listen on 127.0.0.1:${port}: EADDRINUSE (PORT, HOST)`,
    );
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(await redis.zrange(`{tw:${ns}}:nodes`, 0, -1)).toEqual([]);
  });
});
