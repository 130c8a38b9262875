/**
 * Settings whose values are secrets: the key that decrypts every API client's secret, the database and
 * Redis URLs (they carry credentials) and the CLI's client secret. Never passed to a `shell` command, even
 * when TICKWHEEL_SHELL_ENV_PASS lists them, and removed from process.env once read (README "The shell
 * handler"). A new secret setting belongs here.
 */
export const SECRET_SETTINGS: readonly string[] = ['TICKWHEEL_SECRET_KEY', 'DB_URL', 'REDIS_URL', 'TICKWHEEL_SECRET'];

/**
 * Deletes {@link SECRET_SETTINGS} from `env` (default `process.env`), so that nothing this process spawns
 * inherits them by accident. Call it right after {@link loadConfig}, which has read them.
 *
 * It does NOT hide them from /proc/<pid>/environ: that file shows the environment the process was started
 * with, and deleting from process.env does not rewrite it (checked on Linux with Node 20). What keeps a
 * shell command from reading it is running the command as another uid (TICKWHEEL_SHELL_UID).
 * @returns the names that were removed.
 */
export function scrubSecretsFromEnv(env: Record<string, string | undefined> = process.env): string[] {
  const removed = SECRET_SETTINGS.filter((name) => env[name] !== undefined);
  for (const name of removed) delete env[name];
  return removed;
}
