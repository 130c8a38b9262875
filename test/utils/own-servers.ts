import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execFileSync } from 'node:child_process';

/** A server process a test started on loopback (never the shared MariaDB or Redis). */
export interface OwnServer {
  readonly port: number;
  readonly child: ChildProcess;
  /** Sends `signal` (SIGKILL, SIGSTOP, SIGCONT…) to the server process. */
  signal(signal: NodeJS.Signals): void;
  /** Stops the server (SIGCONT first, then SIGKILL) and removes its data directory. */
  stop(): Promise<void>;
}

/** A TCP port free on 127.0.0.1 right now (the kernel's pick; a race with another process is possible but rare). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Waits until `probe` succeeds, every 100 ms, up to `ms`. @throws Error naming `what` after that. */
async function until(what: string, probe: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`${what} did not start within ${ms} ms`);
    await sleep(100);
  }
}

function tryExec(cmd: string, args: string[]): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

function own(port: number, child: ChildProcess, dir: string): OwnServer {
  let exited = false;
  child.once('exit', () => (exited = true));
  return {
    port,
    child,
    signal: (sig) => void child.kill(sig),
    async stop() {
      if (!exited) {
        child.kill('SIGCONT');
        child.kill('SIGKILL');
        await new Promise((resolve) => (exited ? resolve(undefined) : child.once('exit', resolve)));
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts Debian's `redis-server` on a free loopback port (or `port`) with nothing kept on disk, plus `args`
 * (e.g. `['--cluster-enabled', 'yes']`, or `['--sentinel']` with a config file as the first argument).
 * @returns once it answers PING.
 */
export async function startRedis(args: string[] = [], port?: number, configFile?: string): Promise<OwnServer> {
  const p = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'tw-redis-'));
  const base = ['--bind', '127.0.0.1', '--port', String(p), '--save', '', '--appendonly', 'no', '--dir', dir];
  const child = spawn('redis-server', [...(configFile ? [configFile] : []), ...base, ...args], { stdio: 'ignore' });
  await until(`redis-server on ${p}`, () => tryExec('redis-cli', ['-p', String(p), 'ping']));
  return own(p, child, dir);
}

/**
 * Starts a fresh `mariadbd` on a free loopback port (or `port`) in its own temporary datadir, root without a
 * password, with database `test`, plus `args` (e.g. `['--server-id=2', '--log-bin']`).
 * @returns once it answers a ping.
 */
export async function startMariadb(args: string[] = [], port?: number): Promise<OwnServer> {
  const p = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'tw-mariadb-'));
  const data = join(dir, 'data');
  execFileSync(
    'mariadb-install-db',
    ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db'],
    { stdio: 'ignore' },
  );
  const child = spawn(
    'mariadbd',
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--socket=${join(dir, 'sock')}`,
      `--pid-file=${join(dir, 'pid')}`,
      '--bind-address=127.0.0.1',
      `--port=${p}`,
      '--user=root',
      '--innodb-buffer-pool-size=64M',
      '--skip-name-resolve',
      ...args,
    ],
    { stdio: 'ignore' },
  );
  const cli = ['-uroot', '-h127.0.0.1', `-P${p}`];
  await until(`mariadbd on ${p}`, () => tryExec('mysqladmin', [...cli, 'ping']), 60_000);
  execFileSync('mysql', [...cli, '-e', 'CREATE DATABASE IF NOT EXISTS test']);
  return own(p, child, dir);
}
