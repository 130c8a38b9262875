import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { ValidationError } from '../../../common/index.js';
import { abortError, decodeUtf8Prefix, isPlainObject } from './http-call.js';

/** Validated parameters of one command run. */
export interface ShellCommandParams {
  /** argv[0] is the program (looked up on the child's PATH), the rest its arguments; no shell is involved. */
  argv: string[];
  cwd?: string;
  /** Extra variables, merged over the inherited PATH/HOME/LANG. */
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
}

export const SHELL_COMMAND_MAX_TIMEOUT_MS = 24 * 60 * 60 * 1000;
const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_OUTPUT_BYTES = 64 * 1024;
const DEFAULT_KILL_GRACE_MS = 2000;
/** After the process exits, how long a grandchild may keep its stdout/stderr open before we stop reading. */
const STDIO_DRAIN_MS = 500;
/** The only variables taken from the parent environment. Everything else (secrets, DB_URL...) stays out. */
export const INHERITED_ENV_VARS = ['PATH', 'HOME', 'LANG'] as const;
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
 * Environment: the child sees only PATH, HOME and LANG from this process (when set), overlaid with
 * `params.env`. The rest of the parent environment (database URLs, secret keys, tokens) is NOT passed.
 *
 * The child runs in its own process group; on timeout or abort the whole group gets SIGTERM, then
 * SIGKILL after 2 s if it is still alive, and the call throws only once the process is gone.
 * stdin is closed; stdout and stderr keep their first `maxOutputBytes` (default 64 KiB) each.
 *
 * @param params raw job params, validated by {@link parseShellCommandParams}.
 * @param signal the caller's signal (cancel, lost lease, shutdown).
 * @returns exit code or signal and the bounded output; a non-zero exit is returned, not thrown.
 * @throws ValidationError on bad params.
 * @throws Error naming argv[0] when the program cannot be started (ENOENT, EACCES), or naming cwd when it is not a directory.
 * @throws Error named 'AbortError' when `signal` fires, 'TimeoutError' when `timeoutMs` passes.
 */
export async function runShellCommand(params: unknown, signal: AbortSignal, opts: ShellCommandOptions = {}): Promise<ShellCommandResult> {
  const p = parseShellCommandParams(params);
  const maxOutput = opts.maxOutputBytes ?? DEFAULT_OUTPUT_BYTES;
  const killGraceMs = opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const program = p.argv[0];
  if (signal.aborted) throw abortError('AbortError', `command '${program}' aborted before it started`, signal.reason);
  if (p.cwd !== undefined) {
    const st = await stat(p.cwd).catch(() => undefined);
    if (!st?.isDirectory()) throw new Error(`cannot run '${program}': working directory '${p.cwd}' does not exist or is not a directory`);
  }

  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV_VARS) {
    const v = process.env[name];
    if (v !== undefined) env[name] = v;
  }
  Object.assign(env, p.env);

  const started = performance.now();
  const child = spawn(program, p.argv.slice(1), { shell: false, cwd: p.cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const out = new BoundedSink(maxOutput);
  const err = new BoundedSink(maxOutput);
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));

  return new Promise<ShellCommandResult>((resolve, reject) => {
    let stopReason: 'AbortError' | 'TimeoutError' | undefined;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;

    const killGroup = (sig: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        child.kill(sig);
      }
    };
    const stop = (reason: 'AbortError' | 'TimeoutError'): void => {
      if (stopReason || settled) return;
      stopReason = reason;
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), killGraceMs);
    };
    const timeoutTimer = setTimeout(() => stop('TimeoutError'), p.timeoutMs);
    const onAbort = (): void => stop('AbortError');
    signal.addEventListener('abort', onAbort, { once: true });

    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timeoutTimer);
      clearTimeout(killTimer);
      clearTimeout(drainTimer);
      signal.removeEventListener('abort', onAbort);
      return true;
    };

    child.on('error', (e: NodeJS.ErrnoException) => {
      // Emitted when spawning fails; a later error (a failed kill) is covered by killGroup's fallback.
      if (child.pid !== undefined || !settle()) return;
      const why = e.code === 'ENOENT' ? 'program not found' : e.code === 'EACCES' ? 'permission denied' : e.message;
      reject(new Error(`cannot start '${program}': ${why} (${e.code ?? 'spawn error'})`, { cause: e }));
    });
    // A background grandchild may inherit stdout/stderr and hold them open after the process exits:
    // stop reading after a short drain so 'close' follows 'exit'.
    child.on('exit', () => {
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, STDIO_DRAIN_MS);
    });
    child.on('close', (code: number | null, sig: NodeJS.Signals | null) => {
      if (!settle()) return;
      const durationMs = Math.round(performance.now() - started);
      if (stopReason) {
        // The leader is gone; make sure no member of its group that ignored SIGTERM outlives the call.
        killGroup('SIGKILL');
        reject(
          stopReason === 'AbortError'
            ? abortError('AbortError', `command '${program}' aborted by the caller after ${durationMs} ms`, signal.reason)
            : abortError('TimeoutError', `command '${program}' timed out after ${p.timeoutMs} ms`),
        );
        return;
      }
      resolve({
        exitCode: code,
        signal: sig,
        stdout: out.text(),
        stderr: err.text(),
        stdoutTruncated: out.truncated,
        stderrTruncated: err.truncated,
        durationMs,
      });
    });
  });
}
