import { chmodSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { APP_CONFIG, type AppConfig, ConfigError, type ShellSettings, type UidRange } from '../../../config/index.js';
import { JobContext, JobFailure, JobHandler, JobHandlerImpl } from '../../handler/index.js';
import { OWNERLESS_APP_ID } from '../../metadata/index.js';
import { runShellCommand, ShellCommandOptions, ShellCommandResult } from './shell-command.js';
import { passwdHome, shellBaseEnv } from './shell-env.js';
import { firstAccountIn, firstUnmapped, ShellIdentities, ShellIdentityError } from './shell-identities.js';

const NO_OWNER = 'a fire without an owner app (from before job owners) has no shell uid; not run';

/** Files a per-app command creates are its own only (umask 077): another app's uid cannot read them. */
const PER_APP_UMASK = 0o077;

/** How commands run: each app as its own uid, every app as one uid (unisolated), or as this process (unisolated). */
export type RunAsMode = 'per-app' | 'shared' | 'own';

/**
 * Built-in `shell` handler (TICKWHEEL_ALLOW_SHELL=true): runs `params.argv` without a shell, as its app's own uid and
 * gid from TICKWHEEL_SHELL_UID_RANGE (README "The shell handler"); a non-zero exit fails the attempt, keeping the
 * output. An app without a usable uid (the range full) fails the run, not retried.
 */
@Injectable()
@JobHandler('shell')
export class ShellJobHandler implements JobHandlerImpl, OnModuleInit {
  private readonly logger = new Logger('ShellJobHandler');
  private mode: RunAsMode = 'own';
  private fixed: ShellCommandOptions = {};
  private baseEnv: Record<string, string> = {};
  private readonly homes = new LRUCache<number, string>({ max: 10_000 });

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly identities: ShellIdentities,
  ) {}

  /** Checks the run-as users, closes the standalone DATA_DIR to them, sets the base environment. @throws ConfigError */
  onModuleInit(): void {
    const { uid, gid, uidRange, envPass } = this.config.shell;
    const euid = process.geteuid?.();
    this.mode = checkRunAs(this.config.shell, euid);
    if (uidRange) checkRange(uidRange);
    if (this.mode !== 'own' && this.config.shape === 'standalone') this.closeDataDir();
    this.baseEnv = shellBaseEnv(process.env, { home: '/', pass: envPass });
    this.fixed = { uid, gid, env: { ...this.baseEnv, HOME: passwdHome(uid ?? euid ?? -1) } };
    if (this.mode === 'per-app') {
      this.logger.log(`each app's shell commands run as a uid of its own from ${uidRange?.lo}-${uidRange?.hi}`);
    } else {
      const who = this.mode === 'shared' ? `uid ${uid}, every app alike,` : `uid ${uid ?? euid}`;
      const what = this.mode === 'shared' ? "one another's" : "this process's";
      this.logger.warn(
        `TICKWHEEL_SHELL_UNISOLATED=true: shell commands run as ${who} and can read ${what} environment and ` +
          'memory (TICKWHEEL_SECRET_KEY, DB_URL, REDIS_URL, params.env); for a single-user development machine only',
      );
    }
  }

  async execute(ctx: JobContext): Promise<ShellCommandResult> {
    const result = await runShellCommand(ctx.params, ctx.signal, await this.runAs(ctx.appId));
    if (result.exitCode !== 0) {
      throw new JobFailure(result.signal ? `killed by ${result.signal}` : `exit code ${result.exitCode}`, result);
    }
    return result;
  }

  /** Who `appId`'s command runs as. @throws JobFailure, not retried, when the app has no usable uid. */
  private async runAs(appId: string): Promise<ShellCommandOptions> {
    const range = this.config.shell.uidRange;
    if (this.mode !== 'per-app' || !range) return this.fixed;
    // A fire from before job owners carries no app of its own: it has no identity to run as.
    if (appId === OWNERLESS_APP_ID) throw new JobFailure(NO_OWNER, undefined, { retryable: false });
    let uid: number;
    try {
      uid = await this.identities.uidOf(appId, range);
    } catch (err) {
      if (err instanceof ShellIdentityError) throw new JobFailure(err.message, undefined, { retryable: false });
      throw err;
    }
    let home = this.homes.get(uid);
    if (home === undefined) this.homes.set(uid, (home = passwdHome(uid)));
    return { uid, gid: uid, umask: PER_APP_UMASK, env: { ...this.baseEnv, HOME: home } };
  }

  /** Standalone keeps secret.key, credentials.json and the SQLite file in DATA_DIR: owner only. */
  private closeDataDir(): void {
    const dir = this.config.dataDir;
    mkdirSync(dir, { recursive: true, mode: 0o700 }); // lockDataDir made it, unless the app is built another way
    const mode = statSync(dir).mode & 0o777;
    if ((mode & 0o077) === 0) return;
    chmodSync(dir, mode & 0o700);
    const now = (mode & 0o700).toString(8);
    this.logger.warn(
      `DATA_DIR ${dir} was mode ${mode.toString(8)}: now ${now}, so that shell commands cannot read ` +
        'its keys and database',
    );
  }
}

/**
 * How commands run for `s` in a process of effective uid `euid`. @throws ConfigError when that needs a switch this
 * process cannot make (not root), or commands would run unisolated without TICKWHEEL_SHELL_UNISOLATED.
 */
export function checkRunAs(s: Pick<ShellSettings, 'uid' | 'uidRange' | 'unisolated'>, euid: number | undefined) {
  const { uid, uidRange, unisolated } = s;
  const root = euid === 0;
  if (uidRange) {
    if (!root)
      throw new ConfigError(
        'TICKWHEEL_SHELL_UID_RANGE',
        `each app's shell commands are to run as a uid of its own, but this process runs as uid ` +
          `${euid ?? 'unknown'}, not root, and cannot switch users`,
      );
    return 'per-app';
  }
  if (uid !== undefined && uid !== euid && !root) {
    throw new ConfigError(
      'TICKWHEEL_SHELL_UID',
      `shell commands are to run as uid ${uid}, but this process runs as ` +
        `uid ${euid ?? 'unknown'}, not root, and cannot switch users`,
    );
  }
  if (!unisolated) {
    throw new ConfigError(
      'TICKWHEEL_ALLOW_SHELL',
      `shell commands would run as uid ${uid ?? euid ?? 'unknown'}, one identity for every app, which can read ` +
        "another app's and this process's environment; run the executor as root or set " +
        'TICKWHEEL_SHELL_UNISOLATED=true (single-user development machines only)',
    );
  }
  return uid !== undefined && uid !== euid ? 'shared' : 'own';
}

/**
 * @throws ConfigError naming TICKWHEEL_SHELL_UID_RANGE when this user namespace does not map all of `range`, or when
 * it holds an account of /etc/passwd or /etc/group (an app's commands would run as that user or group).
 */
function checkRange(range: UidRange): void {
  const read = (file: string): string | null => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return null; // not Linux, or no such file: nothing to check
    }
  };
  for (const file of ['/proc/self/uid_map', '/proc/self/gid_map']) {
    const text = read(file);
    const id = text === null ? null : firstUnmapped(range, text);
    if (text !== null && id !== null)
      throw new ConfigError(
        'TICKWHEEL_SHELL_UID_RANGE',
        `${range.lo}-${range.hi} holds ${id}, which this process's user namespace does not map (${file}: ` +
          `${text.trim().replace(/\s+/g, ' ')}); in a rootless or user-namespaced container choose a range inside ` +
          'the mapped ids (often 1-65535), e.g. 40000-59999',
      );
  }
  for (const file of ['/etc/passwd', '/etc/group']) {
    const account = firstAccountIn(range, read(file) ?? '');
    if (account !== null)
      throw new ConfigError(
        'TICKWHEEL_SHELL_UID_RANGE',
        `${range.lo}-${range.hi} holds ${account} of ${file}: an app's commands would run as it; choose ids no ` +
          'account of this machine or image uses',
      );
  }
}
