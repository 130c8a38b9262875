import { ChildProcess, spawn } from 'node:child_process';
import { realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BOUNDS, ValidationError } from '../../../common/index.js';
import { abortError, decodeUtf8Prefix, isPlainObject } from './http-call.js';
import { passwdHome, shellBaseEnv } from './shell-env.js';

/**
 * Validated parameters of one command run: `argv[0]` is the program (on the child's PATH), no shell involved;
 * `env` goes over the base environment (see shellBaseEnv).
 */
export interface ShellCommandParams {
  argv: string[];
  cwd?: string;
  env: Record<string, string>;
  timeoutMs: number;
}

/**
 * What one command run produced; a non-zero exit is a result, not an error. `exitCode` is null when a signal
 * (`signal`, e.g. 'SIGSEGV') ended it; stdout/stderr keep their first `maxOutputBytes`, never cut inside a
 * character; `durationMs`: spawn to the close of the output.
 */
export interface ShellCommandResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  durationMs: number;
}

/**
 * Defaults: 64 KiB kept of each output, 2 s from SIGTERM to SIGKILL, this process's uid/gid (switching needs
 * root and drops supplementary groups), {@link shellBaseEnv} of process.env with the run-as uid's HOME.
 */
export interface ShellCommandOptions {
  maxOutputBytes?: number;
  killGraceMs?: number;
  uid?: number;
  gid?: number;
  env?: Record<string, string>;
  /** The child's file mode mask (e.g. 0o077); default this process's. */
  umask?: number;
}

export const SHELL_COMMAND_MAX_TIMEOUT_MS = BOUNDS.timeoutMs.max;
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_OUTPUT_BYTES = 64 * 1024;
const DEFAULT_KILL_GRACE_MS = 2000;
/** After the process exits, how long a grandchild may keep its stdout/stderr open before we stop reading. */
const STDIO_DRAIN_MS = 500;
/** Working directory of a command that names none: one every user can enter. */
const DEFAULT_CWD = '/';
const KNOWN_KEYS = new Set(['argv', 'cwd', 'env', 'timeoutMs']);
const ENV_NAME = /^[^=\0]+$/;

/**
 * Validates raw job params into {@link ShellCommandParams}.
 * @throws ValidationError naming the field (`params.argv`, `params.argv[2]`, `params.env.X`, ...) at fault.
 */
export function parseShellCommandParams(params: unknown): ShellCommandParams {
  if (!isPlainObject(params)) throw new ValidationError('params', 'must be an object');
  for (const k of Object.keys(params)) {
    if (!KNOWN_KEYS.has(k)) {
      throw new ValidationError(`params.${k}`, `unknown field; allowed: ${[...KNOWN_KEYS].join(', ')}`);
    }
  }

  const { argv } = params;
  if (!Array.isArray(argv)) {
    const why = 'must be an array of strings (argv[0] is the program); a shell string is not accepted';
    throw new ValidationError('params.argv', why);
  }
  if (argv.length === 0) throw new ValidationError('params.argv', 'must not be empty (argv[0] is the program)');
  argv.forEach((a, i) => {
    if (typeof a !== 'string') throw new ValidationError(`params.argv[${i}]`, 'must be a string');
    if (a.includes('\0')) throw new ValidationError(`params.argv[${i}]`, 'must not contain NUL');
  });
  if (argv[0] === '') throw new ValidationError('params.argv[0]', 'must name the program');

  let cwd: string | undefined;
  if (params.cwd !== undefined) {
    if (typeof params.cwd !== 'string' || params.cwd === '' || params.cwd.includes('\0')) {
      throw new ValidationError('params.cwd', 'must be a non-empty path');
    }
    cwd = params.cwd;
  }

  const env: Record<string, string> = {};
  if (params.env !== undefined) {
    if (!isPlainObject(params.env)) throw new ValidationError('params.env', 'must be an object of string values');
    for (const [name, value] of Object.entries(params.env)) {
      if (!ENV_NAME.test(name)) throw new ValidationError(`params.env.${name}`, 'is not a valid variable name');
      if (typeof value !== 'string') throw new ValidationError(`params.env.${name}`, 'must be a string');
      if (value.includes('\0')) throw new ValidationError(`params.env.${name}`, 'must not contain NUL');
      env[name] = value;
    }
  }

  const timeoutMs = params.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const max = SHELL_COMMAND_MAX_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > max) {
    throw new ValidationError('params.timeoutMs', `must be an integer from 1 to ${max} (milliseconds)`);
  }

  return { argv: argv as string[], cwd, env, timeoutMs };
}

/** Keeps the first `max` bytes written to it and counts the rest. */
class BoundedSink {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  truncated = false;

  constructor(private readonly max: number) {}

  push(chunk: Buffer): void {
    const room = this.max - this.kept;
    if (chunk.length > room) this.truncated = true;
    if (room <= 0) return;
    const take = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(take);
    this.kept += take.length;
  }

  text(): string {
    return decodeUtf8Prefix(Buffer.concat(this.chunks, this.kept), this.truncated);
  }
}

/**
 * Runs one program with `spawn(argv[0], argv.slice(1), { shell: false })`: arguments verbatim, no expansion. As
 * `opts.uid`/`opts.gid`, with `opts.env` overlaid by `params.env` and nothing else of this environment, in
 * `params.cwd` (default '/'). The child leads its own process group: when it exits, what it left in the group is
 * killed; on timeout or abort the group gets SIGTERM, then SIGKILL after `killGraceMs`, and the call throws once
 * the process is gone. One that leaves the group (setsid) escapes (README "The shell handler"). stdin is closed.
 * @throws ValidationError on bad params.
 * @throws Error naming argv[0] when the program cannot be started (ENOENT, EACCES, EPERM), or naming cwd when
 *   it is not a directory or the run-as user cannot enter it.
 * @throws Error named 'AbortError' when `signal` fires, 'TimeoutError' when `timeoutMs` passes.
 */
export async function runShellCommand(
  params: unknown,
  signal: AbortSignal,
  opts: ShellCommandOptions = {},
): Promise<ShellCommandResult> {
  const p = parseShellCommandParams(params);
  const program = p.argv[0];
  if (signal.aborted) throw abortError('AbortError', `command '${program}' aborted before it started`, signal.reason);
  const cwd = p.cwd ?? DEFAULT_CWD;
  await checkCwd(program, cwd, opts.uid, opts.gid);
  const base = opts.env ?? shellBaseEnv(process.env, { home: passwdHome(opts.uid ?? process.getuid?.() ?? -1) });
  const env = { ...base, ...p.env };
  const started = performance.now();
  const child = withUmask(opts.umask, () =>
    spawn(program, p.argv.slice(1), {
      shell: false,
      cwd,
      env,
      uid: opts.uid,
      gid: opts.gid,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    }),
  );
  const out = new BoundedSink(opts.maxOutputBytes ?? DEFAULT_OUTPUT_BYTES);
  const err = new BoundedSink(opts.maxOutputBytes ?? DEFAULT_OUTPUT_BYTES);
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const killGraceMs = opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const { code, sig, stopReason } = await superviseGroup(child, program, p.timeoutMs, signal, killGraceMs, opts.uid);
  const durationMs = Math.round(performance.now() - started);
  if (stopReason === 'AbortError') {
    throw abortError('AbortError', `command '${program}' aborted by the caller after ${durationMs} ms`, signal.reason);
  }
  if (stopReason === 'TimeoutError') {
    throw abortError('TimeoutError', `command '${program}' timed out after ${p.timeoutMs} ms`);
  }
  return {
    exitCode: code,
    signal: sig,
    stdout: out.text(),
    stderr: err.text(),
    stdoutTruncated: out.truncated,
    stderrTruncated: err.truncated,
    durationMs,
  };
}

/**
 * Runs `fn` (a spawn) with the process umask set to `mask`, then puts it back. spawn forks before it returns, so the
 * child inherits `mask` and no other JavaScript runs meanwhile; a file a libuv thread creates in that window gets
 * a stricter mode with 077 than it would have had, never a looser one.
 */
function withUmask<T>(mask: number | undefined, fn: () => T): T {
  if (mask === undefined) return fn();
  const saved = process.umask(mask);
  try {
    return fn();
  } finally {
    process.umask(saved);
  }
}

/** @throws naming `dir` when not a directory or `uid`/`gid` may not enter it (mode bits; ACLs: spawn's EACCES). */
async function checkCwd(program: string, dir: string, uid: number | undefined, gid: number | undefined): Promise<void> {
  const st = await stat(dir).catch(() => undefined);
  if (!st?.isDirectory()) {
    throw new Error(`cannot run '${program}': working directory '${dir}' does not exist or is not a directory`);
  }
  if (uid === undefined || uid === 0) return;
  for (let d = await realpath(dir); ; d = dirname(d)) {
    const s = await stat(d);
    const bit = s.uid === uid ? 0o100 : s.gid === gid ? 0o010 : 0o001;
    if ((s.mode & bit) === 0) {
      const where = `'${d}' is mode ${(s.mode & 0o777).toString(8)}, owner ${s.uid}:${s.gid}`;
      throw new Error(`cannot run '${program}': working directory '${dir}' cannot be entered by uid ${uid} (${where})`);
    }
    if (d === dirname(d)) return;
  }
}

interface GroupEnd {
  code: number | null;
  sig: NodeJS.Signals | null;
  stopReason?: 'AbortError' | 'TimeoutError';
}

/** Waits for `child` (its group's leader) to end and its output to close. @throws when it cannot start. */
function superviseGroup(
  child: ChildProcess,
  program: string,
  timeoutMs: number,
  signal: AbortSignal,
  killGraceMs: number,
  uid: number | undefined,
): Promise<GroupEnd> {
  return new Promise<GroupEnd>((resolve, reject) => {
    let stopReason: GroupEnd['stopReason'];
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    const killGroup = (sig: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        /* the group is empty: nothing left to kill */
      }
    };
    const stop = (reason: 'AbortError' | 'TimeoutError'): void => {
      if (stopReason || settled) return;
      stopReason = reason;
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), killGraceMs);
    };
    const timeoutTimer = setTimeout(() => stop('TimeoutError'), timeoutMs);
    const onAbort = (): void => stop('AbortError');
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      for (const t of [timeoutTimer, killTimer, drainTimer]) clearTimeout(t);
      signal.removeEventListener('abort', onAbort);
      return true;
    };

    child.on('error', (e: NodeJS.ErrnoException) => {
      // Emitted when spawning fails; a later error (a failed kill) changes nothing.
      if (child.pid !== undefined || !settle()) return;
      const as = uid === undefined ? '' : ` as uid ${uid}`;
      const why = `${spawnFailure(e)} (${e.code ?? 'spawn error'})`;
      reject(new Error(`cannot start '${program}'${as}: ${why}`, { cause: e }));
    });
    child.on('exit', () => {
      // The group outlives its reaped leader while any member does; a grandchild that left it (setsid) may hold
      // stdout open: stop reading after a drain.
      killGroup('SIGKILL');
      drainTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, STDIO_DRAIN_MS);
    });
    child.on('close', (code: number | null, sig: NodeJS.Signals | null) => {
      if (settle()) resolve({ code, sig, stopReason });
    });
  });
}

function spawnFailure(e: NodeJS.ErrnoException): string {
  if (e.code === 'ENOENT') return 'program not found';
  if (e.code === 'EACCES') return 'permission denied';
  if (e.code === 'EPERM') return 'not permitted to switch to that user (the executor must run as root)';
  if (e.code === 'EINVAL') return 'that uid or gid is not valid here (not mapped in this user namespace?)';
  return e.message;
}
