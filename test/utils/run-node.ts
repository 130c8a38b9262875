import { spawn } from 'node:child_process';

/** How a finished child process ended and what it printed. */
export interface NodeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Settings a developer's shell may carry; dropped so that only what a test sets counts. */
export const SETTING =
  /^(PORT|HOST|DB_URL|REDIS_\w+|DATA_DIR|ROLES|NODE_NAME|LOG_LEVEL|TICKWHEEL_\w+|EGRESS_\w+|RATE_LIMIT_\w+|MAX_\w+|JOB_MAX_\w+|EXECUTOR_\w+|\w+_MS|TRIGGER_BATCH_SIZE)$/;

/**
 * Runs `node <script> …args` to its end with the product's settings cleared from the environment and
 * `settings` added; killed (SIGKILL) after `timeoutMs` so a regression cannot hang the suite. `uid`/`gid`
 * run it as another user (the caller must be root).
 */
export function runNode(
  script: string,
  args: string[],
  settings: Record<string, string>,
  opts: { cwd?: string; timeoutMs?: number; uid?: number; gid?: number } = {},
): Promise<NodeExit> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SETTING.test(k)) env[k] = v;
  Object.assign(env, settings);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: opts.cwd,
      env,
      uid: opts.uid,
      gid: opts.gid,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
