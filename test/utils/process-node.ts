import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { SETTING } from './run-node.js';

/** How much of a process's output {@link ProductProcess.output} keeps (characters). */
const KEEP_CHARS = 1_000_000;

/** A real product process (`node dist/src/main.js`, built by test/global-setup.mjs). */
export interface ProductProcess {
  child: ChildProcess;
  pid: number;
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
  signal(sig: NodeJS.Signals): void;
  exited: Promise<number | null>;
}

/**
 * Starts `node dist/src/main.js` (or `script`, e.g. an example's main under dist/examples) with `settings` (plus
 * PORT=0-style free port chosen by the caller); `uid`/`gid` run it as another user (the caller must be root).
 */
export function startProcess(
  settings: Record<string, string>,
  opts: { uid?: number; gid?: number; script?: string } = {},
): ProductProcess {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SETTING.test(k)) env[k] = v;
  Object.assign(env, { LOG_LEVEL: 'warn' }, settings);
  const script = join(process.cwd(), opts.script ?? 'dist/src/main.js');
  return startCommand([process.execPath, script], env, opts);
}

/**
 * Starts `argv` (looked up on env.PATH when not a path) with exactly `env` from `cwd` (default the repo root);
 * the last 1,000,000 characters of stdout and stderr are kept for {@link ProductProcess.output}.
 */
export function startCommand(
  argv: string[],
  env: Record<string, string>,
  opts: { uid?: number; gid?: number; cwd?: string } = {},
): ProductProcess {
  const child = spawn(argv[0], argv.slice(1), {
    cwd: opts.cwd ?? process.cwd(),
    env,
    uid: opts.uid,
    gid: opts.gid,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Chunks, the oldest dropped past KEEP_CHARS (no copy of the whole tail per chunk: a fault floods the log).
  const chunks: string[] = [];
  let kept = 0;
  const keep = (c: Buffer) => {
    chunks.push(c.toString());
    kept += chunks[chunks.length - 1].length;
    while (kept - chunks[0].length >= KEEP_CHARS) kept -= (chunks.shift() as string).length;
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let extra = '';
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => resolve(code));
    // Not started at all (ENOENT, EACCES): no 'exit' follows.
    child.on('error', (err) => {
      extra += `\n[spawn ${argv[0]}] ${err.message}\n`;
      resolve(null);
    });
  });
  return {
    child,
    pid: child.pid as number,
    output: () => chunks.join('').slice(-KEEP_CHARS) + extra,
    signal: (sig) => child.kill(sig),
    exited,
    stop: async (graceMs = 10_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(t);
    },
  };
}
