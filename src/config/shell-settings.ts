import { ConfigError } from './config-error.js';
import { SECRET_SETTINGS } from './secrets.js';

/** uid and gid of `nobody`/`nogroup`: a `shell` command's default when the executor is root. */
export const SHELL_DEFAULT_ID = 65534;

/** How the built-in `shell` handler runs its commands (README "The shell handler"). */
export interface ShellSettings {
  /** uid/gid the command runs as; undefined = this process's own (only with `unisolated`). */
  uid?: number;
  gid?: number;
  /** TICKWHEEL_SHELL_UNISOLATED: the operator accepts commands that can read this process's secrets. */
  unisolated: boolean;
  /** Names passed from this process's environment besides PATH, LANG and TZ (never a secret setting). */
  envPass: string[];
}

/** The settings {@link shellSettings} reads (already type-checked by EnvDto). */
export interface ShellSettingsInput {
  TICKWHEEL_SHELL_UID?: number;
  TICKWHEEL_SHELL_GID?: number;
  TICKWHEEL_SHELL_UNISOLATED?: boolean;
  TICKWHEEL_SHELL_ENV_PASS?: string;
}

const WHY =
  "a command running as the executor's own user can read its environment (/proc/<pid>/environ: " +
  'TICKWHEEL_SECRET_KEY, DB_URL, REDIS_URL) and memory';

/**
 * Resolves the shell handler's settings (docs/tenancy.md "Shell isolation"): as root, commands run as 65534;
 * not root, an executor allowing shell refuses to start unless unisolated; uid 0 or our own uid are refused.
 * @param shellRuns TICKWHEEL_ALLOW_SHELL is on and this process is an executor.
 * @throws ConfigError naming the setting to change.
 */
export function shellSettings(s: ShellSettingsInput, shellRuns: boolean, euid: number | undefined): ShellSettings {
  const unisolated = s.TICKWHEEL_SHELL_UNISOLATED ?? false;
  const envPass = parseEnvPass(s.TICKWHEEL_SHELL_ENV_PASS);
  const root = euid === 0;
  const uid = s.TICKWHEEL_SHELL_UID ?? (root ? SHELL_DEFAULT_ID : undefined);
  const gid = s.TICKWHEEL_SHELL_GID ?? (root ? SHELL_DEFAULT_ID : undefined);
  if (!unisolated) {
    if (s.TICKWHEEL_SHELL_UID === 0)
      throw new ConfigError(
        'TICKWHEEL_SHELL_UID',
        `0 would run shell commands as root; ${WHY}. Use an unprivileged uid (default 65534)`,
      );
    if (s.TICKWHEEL_SHELL_UID !== undefined && s.TICKWHEEL_SHELL_UID === euid)
      throw new ConfigError(
        'TICKWHEEL_SHELL_UID',
        `${euid} is this process's own uid; ${WHY}. Use another, unprivileged uid`,
      );
    if (s.TICKWHEEL_SHELL_GID === 0)
      throw new ConfigError(
        'TICKWHEEL_SHELL_GID',
        "0 would give shell commands the root group's file access; use an unprivileged gid (default 65534)",
      );
  }
  if (!shellRuns) return { uid, gid, unisolated, envPass };
  const explicit =
    s.TICKWHEEL_SHELL_UID !== undefined
      ? 'TICKWHEEL_SHELL_UID'
      : s.TICKWHEEL_SHELL_GID !== undefined
        ? 'TICKWHEEL_SHELL_GID'
        : undefined;
  if (!root && explicit)
    throw new ConfigError(
      explicit,
      `running shell commands as another user needs root, and this process runs as uid ${euid ?? 'unknown'}; unset it`,
    );
  if (!root && !unisolated) {
    throw new ConfigError(
      'TICKWHEEL_ALLOW_SHELL',
      `this executor runs as uid ${euid ?? 'unknown'}, not root, so it cannot run shell commands as another user, ` +
        `and ${WHY}. ` +
        'Run the executor as root (commands then run as TICKWHEEL_SHELL_UID, default 65534), or, on a single-user ' +
        'development machine only, set TICKWHEEL_SHELL_UNISOLATED=true',
    );
  }
  return { uid, gid, unisolated, envPass };
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** TICKWHEEL_SHELL_ENV_PASS: a comma list of variable names, none of them a secret setting. */
function parseEnvPass(raw: string | undefined): string[] {
  const names = (raw ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  for (const n of names) {
    if (!ENV_NAME.test(n))
      throw new ConfigError(
        'TICKWHEEL_SHELL_ENV_PASS',
        `'${n}' is not a variable name (a comma list of names, e.g. HTTP_PROXY,NO_PROXY)`,
      );
    if (SECRET_SETTINGS.includes(n))
      throw new ConfigError(
        'TICKWHEEL_SHELL_ENV_PASS',
        `'${n}' is a secret setting and is never passed to shell commands`,
      );
  }
  return [...new Set(names)];
}
