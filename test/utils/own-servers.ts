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
  /**
   * Starts the server again with the same command line: same port, same data directory (a MariaDB keeps its
   * databases; a Redis of {@link startRedis} starts empty, nothing is kept on disk). A process still running is
   * SIGKILLed first. @returns once it answers again; `child` is then the new process.
   */
  restart(): Promise<void>;
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

/** How {@link own} starts a server's process again and waits until it answers (for `restart`). */
interface Relaunch {
  spawn(): ChildProcess;
  ready(): Promise<void>;
}

function own(port: number, first: ChildProcess, dir: string, relaunch?: Relaunch): OwnServer {
  let child = first;
  let exited = false;
  const watch = (c: ChildProcess) =>
    c.once('exit', () => {
      if (c === child) exited = true;
    });
  watch(child);
  const kill = async () => {
    if (exited) return;
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await new Promise((resolve) => (exited ? resolve(undefined) : child.once('exit', resolve)));
  };
  return {
    port,
    get child() {
      return child;
    },
    signal: (sig) => void child.kill(sig),
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
    async restart() {
      if (!relaunch) throw new Error('this server cannot be restarted');
      await kill();
      child = relaunch.spawn();
      exited = false;
      watch(child);
      await relaunch.ready();
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
  const launch = () =>
    spawn('redis-server', [...(configFile ? [configFile] : []), ...base, ...args], { stdio: 'ignore' });
  const ready = () => until(`redis-server on ${p}`, () => tryExec('redis-cli', ['-p', String(p), 'ping']));
  const child = launch();
  await ready();
  return own(p, child, dir, { spawn: launch, ready });
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
  const launch = () =>
    spawn(
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
  const ready = () => until(`mariadbd on ${p}`, () => tryExec('mysqladmin', [...cli, 'ping']), 60_000);
  const child = launch();
  await ready();
  execFileSync('mysql', [...cli, '-e', 'CREATE DATABASE IF NOT EXISTS test']);
  return own(p, child, dir, { spawn: launch, ready });
}
