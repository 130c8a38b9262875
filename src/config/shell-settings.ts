import { ConfigError } from './config-error.js';
import { SECRET_SETTINGS } from './secrets.js';

/** uid and gid of `nobody`/`nogroup`: a shared identity's default (TICKWHEEL_SHELL_UNISOLATED) when root. */
export const SHELL_DEFAULT_ID = 65534;

/** An inclusive range of uids (each also the gid of its own group). */
export interface UidRange {
  lo: number;
  hi: number;
}

/** TICKWHEEL_SHELL_UID_RANGE's default: far from login, system and subuid ids (README "The shell handler"). */
export const SHELL_UID_RANGE_DEFAULT: UidRange = { lo: 2_000_000_000, hi: 2_000_065_535 };
/** Highest id a range may reach: below 2^31 (tools reading a uid as a signed 32-bit int). */
export const SHELL_UID_MAX = 2 ** 31 - 1;

/** How the built-in `shell` handler runs its commands (README "The shell handler"). */
export interface ShellSettings {
  /** Each app's commands run as a uid (= gid) of its own from this range; undefined: `uid`/`gid` below. */
  uidRange?: UidRange;
  /** One identity for every app (TICKWHEEL_SHELL_UNISOLATED only); undefined = this process's own. */
  uid?: number;
  gid?: number;
  /** TICKWHEEL_SHELL_UNISOLATED: the operator accepts commands that are not isolated from each other or us. */
  unisolated: boolean;
  /** Names passed from this process's environment besides LANG and TZ (PATH too when listed; never a secret). */
  envPass: string[];
}

/** The settings {@link shellSettings} reads (already type-checked by EnvDto). */
export interface ShellSettingsInput {
  TICKWHEEL_SHELL_UID_RANGE?: string;
  TICKWHEEL_SHELL_UID?: number;
  TICKWHEEL_SHELL_GID?: number;
  TICKWHEEL_SHELL_UNISOLATED?: boolean;
  TICKWHEEL_SHELL_ENV_PASS?: string;
}

const WHY =
  "a command running as the executor's own user can read its environment (/proc/<pid>/environ: " +
  'TICKWHEEL_SECRET_KEY, DB_URL, REDIS_URL) and memory';
const SHARED =
  "one identity shared by every app lets one app's commands read another's environment (/proc/<pid>/environ) " +
  'and kill or trace its commands';

/**
 * Resolves the shell handler's settings (docs/tenancy.md "Shell isolation"): as root, per-app uids; one identity
 * for every app (TICKWHEEL_SHELL_UID/GID) only unisolated; not root, an executor refuses shell unless unisolated.
 * @param shellRuns TICKWHEEL_ALLOW_SHELL is on and this process is an executor.
 * @throws ConfigError naming the setting to change.
 */
export function shellSettings(s: ShellSettingsInput, shellRuns: boolean, euid: number | undefined): ShellSettings {
  const unisolated = s.TICKWHEEL_SHELL_UNISOLATED ?? false;
  const envPass = parseEnvPass(s.TICKWHEEL_SHELL_ENV_PASS);
  const range = parseUidRange(s.TICKWHEEL_SHELL_UID_RANGE);
  const root = euid === 0;
  const shared =
    s.TICKWHEEL_SHELL_UID !== undefined
      ? 'TICKWHEEL_SHELL_UID'
      : s.TICKWHEEL_SHELL_GID !== undefined
        ? 'TICKWHEEL_SHELL_GID'
        : undefined;
  const uid = s.TICKWHEEL_SHELL_UID ?? (root ? SHELL_DEFAULT_ID : undefined);
  const gid = s.TICKWHEEL_SHELL_GID ?? (root ? SHELL_DEFAULT_ID : undefined);
  const settings: ShellSettings = shared
    ? { uid, gid, unisolated, envPass }
    : root
      ? { uidRange: range, unisolated, envPass }
      : { unisolated, envPass };
  if (!shellRuns) return settings;
  if (shared && !unisolated)
    throw new ConfigError(
      shared,
      `${SHARED}. Each app's commands run as a uid of their own from TICKWHEEL_SHELL_UID_RANGE ` +
        `(default ${SHELL_UID_RANGE_DEFAULT.lo}-${SHELL_UID_RANGE_DEFAULT.hi}): unset it, or set ` +
        'TICKWHEEL_SHELL_UNISOLATED=true to keep one identity for every app',
    );
  if (!root && shared)
    throw new ConfigError(
      shared,
      `running shell commands as another user needs root, and this process runs as uid ${euid ?? 'unknown'}; unset it`,
    );
  if (!root && !unisolated) {
    throw new ConfigError(
      'TICKWHEEL_ALLOW_SHELL',
      `this executor runs as uid ${euid ?? 'unknown'}, not root, so it cannot run shell commands as another user, ` +
        `and ${WHY}. ` +
        "Run the executor as root (each app's commands then run as a uid of their own from " +
        'TICKWHEEL_SHELL_UID_RANGE), or, on a single-user development machine only, set ' +
        'TICKWHEEL_SHELL_UNISOLATED=true',
    );
  }
  return settings;
}

/** TICKWHEEL_SHELL_UID_RANGE `lo-hi` (inclusive): 1 <= lo <= hi <= 2^31-1, without 65534 (nobody). */
export function parseUidRange(raw: string | undefined): UidRange {
  if (raw === undefined || raw.trim() === '') return SHELL_UID_RANGE_DEFAULT;
  const m = /^\s*(\d{1,10})\s*-\s*(\d{1,10})\s*$/.exec(raw);
  const fail = (why: string) => new ConfigError('TICKWHEEL_SHELL_UID_RANGE', `'${raw}' ${why}`);
  if (!m) throw fail(`is not a range: write lo-hi, e.g. ${SHELL_UID_RANGE_DEFAULT.lo}-${SHELL_UID_RANGE_DEFAULT.hi}`);
  const [lo, hi] = [Number(m[1]), Number(m[2])];
  if (lo < 1) throw fail('starts at 0 (root): the lowest id is 1');
  if (hi > SHELL_UID_MAX) throw fail(`ends above ${SHELL_UID_MAX} (2^31-1)`);
  if (lo > hi) throw fail('is empty: lo must not be above hi');
  if (lo <= SHELL_DEFAULT_ID && SHELL_DEFAULT_ID <= hi)
    throw fail(`holds ${SHELL_DEFAULT_ID} (nobody), which other software runs as`);
  return { lo, hi };
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
