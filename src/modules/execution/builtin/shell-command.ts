import { ChildProcess, spawn } from 'node:child_process';
import { realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ValidationError } from '../../../common/index.js';
import { abortError, decodeUtf8Prefix, isPlainObject } from './http-call.js';
import { passwdHome, shellBaseEnv } from './shell-env.js';

/** Validated parameters of one command run. */
export interface ShellCommandParams {
  /** argv[0] is the program (looked up on the child's PATH), the rest its arguments; no shell is involved. */
  argv: string[];
  cwd?: string;
  /** Extra variables, merged over the base environment (PATH, LANG, TZ, HOME; see shellBaseEnv). */
  env: Record<string, string>;
  timeoutMs: number;
}

/** What one command run produced. A non-zero exit is a result, not an error. */
export interface ShellCommandResult {
  /** Exit code, or null when the process was ended by a signal. */
  exitCode: number | null;
  /** Name of the signal that ended the process (e.g. 'SIGSEGV'), or null. */
  signal: string | null;
  /** The first `maxOutputBytes` bytes of stdout as UTF-8, never cut inside a character. */
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /** Wall time from spawn to the close of the process's output, milliseconds. */
  durationMs: number;
}

export interface ShellCommandOptions {
  /** Bytes kept of stdout and of stderr (each); default 64 KiB. */
  maxOutputBytes?: number;
  /** Time between SIGTERM and SIGKILL on timeout or abort, milliseconds; default 2000. */
  killGraceMs?: number;
  /** uid the command runs as (this process must be root to switch); default: this process's. */
  uid?: number;
  /** gid the command runs as; default: this process's. Setting uid or gid also drops supplementary groups. */
  gid?: number;
  /** The environment params.env goes over; default {@link shellBaseEnv} of process.env with HOME of the run-as uid. */
  env?: Record<string, string>;
}

export const SHELL_COMMAND_MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;
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
    if (!KNOWN_KEYS.has(k)) throw new ValidationError(`params.${k}`, `unknown field; allowed: ${[...KNOWN_KEYS].join(', ')}`);
  }

  const { argv } = params;
  if (!Array.isArray(argv)) throw new ValidationError('params.argv', 'must be an array of strings (argv[0] is the program); a shell string is not accepted');
  if (argv.length === 0) throw new ValidationError('params.argv', 'must not be empty (argv[0] is the program)');
  argv.forEach((a, i) => {
    if (typeof a !== 'string') throw new ValidationError(`params.argv[${i}]`, 'must be a string');
    if (a.includes('\0')) throw new ValidationError(`params.argv[${i}]`, 'must not contain NUL');
  });
  if (argv[0] === '') throw new ValidationError('params.argv[0]', 'must name the program');

  let cwd: string | undefined;
  if (params.cwd !== undefined) {
    if (typeof params.cwd !== 'string' || params.cwd === '' || params.cwd.includes('\0')) throw new ValidationError('params.cwd', 'must be a non-empty path');
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
  if (typeof timeoutMs !== 'number' || !Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > SHELL_COMMAND_MAX_TIMEOUT_MS) {
    throw new ValidationError('params.timeoutMs', `must be an integer from 1 to ${SHELL_COMMAND_MAX_TIMEOUT_MS} (milliseconds)`);
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
 * Runs one program with `child_process.spawn(argv[0], argv.slice(1), { shell: false })` — never through a
 * shell, so arguments are passed verbatim and no quoting or expansion happens.
 *
 * As whom: `opts.uid`/`opts.gid` when given (supplementary groups dropped), else this process's user.
 * Environment: `opts.env` (default {@link shellBaseEnv}: PATH, LANG, TZ, HOME) overlaid with `params.env`;
 * nothing else of this process's environment. Working directory: `params.cwd`, default '/'.
 *
 * The child runs in its own process group. When it exits, whatever it left running in the group is
 * killed (SIGKILL); on timeout or abort the whole group gets SIGTERM, then SIGKILL after `killGraceMs`,
 * and the call throws only once the process is gone. A process that leaves the group (setsid, a daemon)
 * escapes this (README "The shell handler"). stdin is closed; stdout and stderr keep their first
 * `maxOutputBytes` (default 64 KiB) each.
 *
 * @param params raw job params, validated by {@link parseShellCommandParams}.
 * @param signal the caller's signal (cancel, lost lease, shutdown).
 * @returns exit code or signal and the bounded output; a non-zero exit is returned, not thrown.
 * @throws ValidationError on bad params.
 * @throws Error naming argv[0] when the program cannot be started (ENOENT, EACCES, EPERM), or naming cwd when
 *   it is not a directory or the run-as user cannot enter it.
 * @throws Error named 'AbortError' when `signal` fires, 'TimeoutError' when `timeoutMs` passes.
 */
export async function runShellCommand(params: unknown, signal: AbortSignal, opts: ShellCommandOptions = {}): Promise<ShellCommandResult> {
  const p = parseShellCommandParams(params);
  const program = p.argv[0];
  if (signal.aborted) throw abortError('AbortError', `command '${program}' aborted before it started`, signal.reason);
  const cwd = p.cwd ?? DEFAULT_CWD;
  await checkCwd(program, cwd, opts.uid, opts.gid);
  const env = { ...(opts.env ?? shellBaseEnv(process.env, { home: passwdHome(opts.uid ?? process.getuid?.() ?? -1) })), ...p.env };
  const started = performance.now();
  const child = spawn(program, p.argv.slice(1), { shell: false, cwd, env, uid: opts.uid, gid: opts.gid, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const out = new BoundedSink(opts.maxOutputBytes ?? DEFAULT_OUTPUT_BYTES);
  const err = new BoundedSink(opts.maxOutputBytes ?? DEFAULT_OUTPUT_BYTES);
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const { code, sig, stopReason } = await superviseGroup(child, program, p.timeoutMs, signal, opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS, opts.uid);
  const durationMs = Math.round(performance.now() - started);
  if (stopReason === 'AbortError') throw abortError('AbortError', `command '${program}' aborted by the caller after ${durationMs} ms`, signal.reason);
  if (stopReason === 'TimeoutError') throw abortError('TimeoutError', `command '${program}' timed out after ${p.timeoutMs} ms`);
  return { exitCode: code, signal: sig, stdout: out.text(), stderr: err.text(), stdoutTruncated: out.truncated, stderrTruncated: err.truncated, durationMs };
}

/**
 * @throws Error naming `dir` when it is not a directory, or when `uid`/`gid` may not enter it or a directory
 *   above it (judged from the mode bits; an ACL that denies more is reported by spawn as EACCES).
 */
async function checkCwd(program: string, dir: string, uid: number | undefined, gid: number | undefined): Promise<void> {
  const st = await stat(dir).catch(() => undefined);
  if (!st?.isDirectory()) throw new Error(`cannot run '${program}': working directory '${dir}' does not exist or is not a directory`);
  if (uid === undefined || uid === 0) return;
  for (let d = await realpath(dir); ; d = dirname(d)) {
    const s = await stat(d);
    const bit = s.uid === uid ? 0o100 : s.gid === gid ? 0o010 : 0o001;
    if ((s.mode & bit) === 0) {
      throw new Error(`cannot run '${program}': working directory '${dir}' cannot be entered by uid ${uid} ('${d}' is mode ${(s.mode & 0o777).toString(8)}, owner ${s.uid}:${s.gid})`);
    }
    if (d === dirname(d)) return;
  }
}

/** How a supervised process group ended. */
interface GroupEnd {
  code: number | null;
  sig: NodeJS.Signals | null;
  stopReason?: 'AbortError' | 'TimeoutError';
}

/**
 * Waits for `child` (the leader of its own process group) to end and its output to close. When the leader
 * exits, the rest of its group is killed (SIGKILL): background work a command leaves behind does not
 * outlive it. On timeout or abort: SIGTERM to the group, SIGKILL after `killGraceMs`.
 * @throws Error naming `program` when it cannot be started.
 */
function superviseGroup(child: ChildProcess, program: string, timeoutMs: number, signal: AbortSignal, killGraceMs: number, uid: number | undefined): Promise<GroupEnd> {
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
      reject(new Error(`cannot start '${program}'${uid === undefined ? '' : ` as uid ${uid}`}: ${spawnFailure(e)} (${e.code ?? 'spawn error'})`, { cause: e }));
    });
    child.on('exit', () => {
      // The leader has ended (and been reaped); its group lives on while any member does, so the id still
      // names it. A grandchild that left the group (setsid) may hold stdout open: stop reading after a drain.
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

/** Why spawning failed, in words. */
function spawnFailure(e: NodeJS.ErrnoException): string {
  if (e.code === 'ENOENT') return 'program not found';
  if (e.code === 'EACCES') return 'permission denied';
  if (e.code === 'EPERM') return 'not permitted to switch to that user (the executor must run as root)';
  return e.message;
}
