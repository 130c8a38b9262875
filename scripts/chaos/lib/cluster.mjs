// Real product processes for the chaos check: `node dist/src/main.js` with cluster settings, started,
// SIGKILLed and restarted on loopback. Each process's output is appended to a log file of the run.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** Settings a developer's shell may carry; dropped so only what the run sets counts. */
const SETTING =
  /^(PORT|HOST|DB_URL|REDIS_\w+|DATA_DIR|ROLES|NODE_NAME|LOG_LEVEL|TICKWHEEL_\w+|EGRESS_\w+|\w+_MS|EXECUTOR_CONCURRENCY|EXECUTOR_APP_SHARE|TRIGGER_BATCH_SIZE|TRIGGER_FIRE_PARALLELISM)$/;

/** Every child still running; killed when this process exits, however it exits (no orphans left on loopback). */
const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

/**
 * One product process slot (an executor or a scheduler) that can be killed and started again. Every start
 * is a new OS process; executors get a fresh NODE_NAME per start (`<name>r<n>`), so a node id names one life.
 */
export class ProductSlot {
  /**
   * @param {{repo: string, logDir: string, name: string, role: 'executor'|'scheduler', env: Record<string,string>}} o
   */
  constructor(o) {
    Object.assign(this, o);
    this.starts = 0;
    this.child = null;
    this.exited = Promise.resolve(null);
    this.tail = [];
    this.port = 0;
    this.nodeName = null;
    /** True between the spawn and the "listening" line. */
    this.starting = false;
  }

  /** True while the current process runs. */
  get alive() {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** pid of the current process, or null. */
  get pid() {
    return this.alive ? this.child.pid : null;
  }

  /**
   * Starts a new process and waits for its "listening" line.
   * @param {number} [timeoutMs]
   * @throws Error when it exits or does not listen in time (its last lines attached)
   */
  async start(timeoutMs = 60_000) {
    this.starting = true;
    try {
      await this.spawn(timeoutMs);
    } finally {
      this.starting = false;
    }
  }

  /** @see start */
  async spawn(timeoutMs) {
    this.starts++;
    const env = {};
    for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SETTING.test(k)) env[k] = v;
    this.port = await freePort();
    Object.assign(env, { LOG_LEVEL: 'warn', HOST: '127.0.0.1' }, this.env, { PORT: String(this.port) });
    if (this.role === 'executor') this.nodeName = env.NODE_NAME = `${this.name}r${this.starts}`;
    const child = spawn(process.execPath, [join(this.repo, 'dist/src/main.js')], {
      cwd: this.repo,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    children.add(child);
    const log = createWriteStream(join(this.logDir, `${this.name}.log`), { flags: 'a' });
    log.write(`--- start #${this.starts} pid ${child.pid} at ${new Date().toISOString()}\n`);
    let onListen;
    const listening = new Promise((r) => (onListen = r));
    const take = (buf) => {
      log.write(buf);
      for (const line of buf.toString().split('\n')) {
        if (!line) continue;
        this.tail.push(line.slice(0, 300));
        if (this.tail.length > 30) this.tail.shift();
        if (/ listening on /.test(line)) onListen();
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    this.exited = new Promise((r) =>
      child.on('exit', (code, sig) => {
        children.delete(child);
        log.end(`--- exit ${code ?? sig} at ${new Date().toISOString()}\n`);
        r(code ?? sig);
      }),
    );
    let timer;
    const outcome = await Promise.race([
      listening.then(() => 'ok'),
      this.exited.then((c) => `exited (${c})`),
      new Promise((r) => (timer = setTimeout(() => r('timeout'), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (outcome !== 'ok') {
      child.kill('SIGKILL');
      throw new Error(`${this.name} did not start: ${outcome}\n${this.tail.slice(-10).join('\n')}`);
    }
  }

  /** SIGKILL, resolved once the process is gone. */
  async kill() {
    if (!this.alive) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM (graceful), SIGKILL after `graceMs`; resolved once the process is gone. */
  async stop(graceMs = 20_000) {
    if (!this.alive) return;
    this.child.kill('SIGCONT');
    this.child.kill('SIGTERM');
    const t = setTimeout(() => this.child?.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(t);
  }
}

/** A TCP port free on 127.0.0.1 right now (the product prints its configured port, so PORT=0 would hide the real one). */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The pid of the scheduler holding the leader lock of `namespace` (the owner string starts with the pid), or null.
 * @param {import('ioredis').Redis} redis
 * @param {string} namespace
 */
export async function leaderPid(redis, namespace) {
  const owner = await redis.get(`{tw:${namespace}}:lock:leader`);
  return owner ? Number(owner.split('-')[0]) : null;
}
