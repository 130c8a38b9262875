import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, ConfigError } from '../../../config/index.js';
import { JobContext, JobFailure, JobHandler, JobHandlerImpl } from '../../handler/index.js';
import { runShellCommand, ShellCommandOptions, ShellCommandResult } from './shell-command.js';
import { passwdHome, shellBaseEnv } from './shell-env.js';

/**
 * Built-in `shell` handler (TICKWHEEL_ALLOW_SHELL=true): runs `params.argv` without a shell as
 * TICKWHEEL_SHELL_UID/GID (README "The shell handler"); a non-zero exit fails the attempt, keeping the output.
 */
@Injectable()
@JobHandler('shell')
export class ShellJobHandler implements JobHandlerImpl, OnModuleInit {
  private readonly logger = new Logger('ShellJobHandler');
  private runAs: ShellCommandOptions = {};

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** Checks the run-as user, closes the standalone DATA_DIR to it, fixes the base environment. @throws ConfigError */
  onModuleInit(): void {
    const { uid, gid, unisolated, envPass } = this.config.shell;
    const euid = process.geteuid?.();
    const isolated = checkRunAs(uid, unisolated, euid);
    if (isolated && this.config.shape === 'standalone') this.closeDataDir();
    const env = shellBaseEnv(process.env, { home: passwdHome(uid ?? euid ?? -1), pass: envPass });
    this.runAs = { uid, gid, env };
    if (isolated) this.logger.log(`shell commands run as uid ${uid}, gid ${gid ?? 'unchanged'}`);
    else {
      this.logger.warn(
        `TICKWHEEL_SHELL_UNISOLATED=true: shell commands run as uid ${uid ?? euid} and can read this ` +
          "process's environment and memory (TICKWHEEL_SECRET_KEY, DB_URL, REDIS_URL); for a single-user development " +
          'machine only',
      );
    }
  }

  async execute(ctx: JobContext): Promise<ShellCommandResult> {
    const result = await runShellCommand(ctx.params, ctx.signal, this.runAs);
    if (result.exitCode !== 0) {
      throw new JobFailure(result.signal ? `killed by ${result.signal}` : `exit code ${result.exitCode}`, result);
    }
    return result;
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
 * Whether commands run as another user than this process. @throws ConfigError when that needs a switch this
 * process cannot make (not root), or they would run unisolated without TICKWHEEL_SHELL_UNISOLATED.
 */
export function checkRunAs(uid: number | undefined, unisolated: boolean, euid: number | undefined): boolean {
  if (uid !== undefined && uid !== euid && euid !== 0) {
    throw new ConfigError(
      'TICKWHEEL_SHELL_UID',
      `shell commands are to run as uid ${uid}, but this process runs as ` +
        `uid ${euid ?? 'unknown'}, not root, and cannot switch users`,
    );
  }
  const isolated = uid !== undefined && uid !== 0 && uid !== euid;
  if (!isolated && !unisolated) {
    throw new ConfigError(
      'TICKWHEEL_ALLOW_SHELL',
      `shell commands would run as uid ${uid ?? euid ?? 'unknown'}, ` +
        "which can read this process's environment and memory; run the executor as root or set " +
        'TICKWHEEL_SHELL_UNISOLATED=true (single-user development machines only)',
    );
  }
  return isolated;
}
