import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, ConfigError } from '../../../config/index.js';
import { JobContext, JobFailure, JobHandlerImpl } from '../job-context.js';
import { JobHandler } from '../job-handler.decorator.js';
import { runShellCommand, ShellCommandOptions, ShellCommandResult } from './shell-command.js';
import { passwdHome, shellBaseEnv } from './shell-env.js';

/**
 * Built-in `shell` handler, registered only when TICKWHEEL_ALLOW_SHELL=true. Runs `params.argv` without a
 * shell (argv[0] is the program), with a timeout and bounded output, as TICKWHEEL_SHELL_UID/GID (default
 * 65534 when the executor is root) with only PATH, LANG, TZ, HOME and TICKWHEEL_SHELL_ENV_PASS of this
 * process's environment (README "The shell handler"). A non-zero exit fails the attempt and keeps the
 * output as the result.
 */
@Injectable()
@JobHandler('shell')
export class ShellJobHandler implements JobHandlerImpl, OnModuleInit {
  private readonly logger = new Logger('ShellJobHandler');
  private runAs: ShellCommandOptions = {};

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * At executor start: checks that this process can run commands as the configured user, makes the
   * standalone DATA_DIR unreadable to that user, and fixes the commands' base environment.
   * @throws ConfigError when this process cannot switch to the configured uid, or would run commands as
   *   itself without TICKWHEEL_SHELL_UNISOLATED.
   */
  onModuleInit(): void {
    const { uid, gid, unisolated, envPass } = this.config.shell;
    const euid = process.geteuid?.();
    const isolated = checkRunAs(uid, unisolated, euid);
    if (isolated && this.config.shape === 'standalone') this.closeDataDir();
    this.runAs = { uid, gid, env: shellBaseEnv(process.env, { home: passwdHome(uid ?? euid ?? -1), pass: envPass }) };
    if (isolated) this.logger.log(`shell commands run as uid ${uid}, gid ${gid ?? 'unchanged'}`);
    else this.logger.warn(`TICKWHEEL_SHELL_UNISOLATED=true: shell commands run as uid ${uid ?? euid} and can read this process's environment and memory (TICKWHEEL_SECRET_KEY, DB_URL, REDIS_URL); for a single-user development machine only`);
  }

  async execute(ctx: JobContext): Promise<ShellCommandResult> {
    const result = await runShellCommand(ctx.params, ctx.signal, this.runAs);
    if (result.exitCode !== 0) throw new JobFailure(result.signal ? `killed by ${result.signal}` : `exit code ${result.exitCode}`, result);
    return result;
  }

  /** Standalone keeps secret.key, credentials.json and the SQLite file (every job's params) in DATA_DIR: owner only. */
  private closeDataDir(): void {
    const dir = this.config.dataDir;
    mkdirSync(dir, { recursive: true, mode: 0o700 }); // made by lockDataDir at start already, unless the app is built another way
    const mode = statSync(dir).mode & 0o777;
    if ((mode & 0o077) === 0) return;
    chmodSync(dir, mode & 0o700);
    this.logger.warn(`DATA_DIR ${dir} was mode ${mode.toString(8)}: now ${(mode & 0o700).toString(8)}, so that shell commands cannot read its keys and database`);
  }
}

/**
 * Whether commands will run as another user than this process (uid set, not 0, not this process's).
 * @throws ConfigError when uid needs a switch this process cannot make (not root), or when commands would
 *   run unisolated without TICKWHEEL_SHELL_UNISOLATED (a config built for another euid than this process's).
 */
export function checkRunAs(uid: number | undefined, unisolated: boolean, euid: number | undefined): boolean {
  if (uid !== undefined && uid !== euid && euid !== 0) {
    throw new ConfigError('TICKWHEEL_SHELL_UID', `shell commands are to run as uid ${uid}, but this process runs as uid ${euid ?? 'unknown'}, not root, and cannot switch users`);
  }
  const isolated = uid !== undefined && uid !== 0 && uid !== euid;
  if (!isolated && !unisolated) {
    throw new ConfigError('TICKWHEEL_ALLOW_SHELL', `shell commands would run as uid ${uid ?? euid ?? 'unknown'}, which can read this process's environment and memory; run the executor as root or set TICKWHEEL_SHELL_UNISOLATED=true (single-user development machines only)`);
  }
  return isolated;
}
