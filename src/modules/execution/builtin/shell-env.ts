import { readFileSync, statSync } from 'node:fs';
import { SECRET_SETTINGS } from '../../../config/index.js';

/** Taken from this process's environment when set, for every command. */
export const SHELL_ENV_BASE = ['LANG', 'TZ'] as const;
/**
 * Every command's PATH unless TICKWHEEL_SHELL_ENV_PASS lists PATH: never this process's own, which under `npm start`
 * leads with the clone's node_modules/.bin (a program of the checkout would shadow `ls` or `git`).
 */
export const DEFAULT_SHELL_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * A `shell` command's base environment: PATH = {@link DEFAULT_SHELL_PATH} (the parent's only when `pass` lists it),
 * LANG, TZ and the `pass` names (TICKWHEEL_SHELL_ENV_PASS) from `parent`, HOME = `home`; never a secret setting.
 */
export function shellBaseEnv(
  parent: Record<string, string | undefined>,
  opts: { home: string; pass?: readonly string[] },
): Record<string, string> {
  const env: Record<string, string> = { PATH: DEFAULT_SHELL_PATH };
  for (const name of [...SHELL_ENV_BASE, ...(opts.pass ?? [])]) {
    const v = parent[name];
    if (v !== undefined && !SECRET_SETTINGS.includes(name)) env[name] = v;
  }
  env.HOME = opts.home;
  return env;
}

/** `uid`'s passwd home when it exists, else '/': a command never gets this process's own HOME. */
export function passwdHome(uid: number, passwdFile = '/etc/passwd'): string {
  let text: string;
  try {
    text = readFileSync(passwdFile, 'utf8');
  } catch {
    return '/';
  }
  for (const line of text.split('\n')) {
    const f = line.split(':'); // name:password:uid:gid:gecos:home:shell
    if (f.length < 7 || f[2] !== String(uid)) continue;
    try {
      return f[5] !== '' && statSync(f[5]).isDirectory() ? f[5] : '/';
    } catch {
      return '/';
    }
  }
  return '/';
}
