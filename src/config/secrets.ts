/**
 * Settings whose values are secrets: never passed to a `shell` command and removed from process.env once
 * read (docs/tenancy.md "Shell isolation"). A new secret setting belongs here.
 */
export const SECRET_SETTINGS: readonly string[] = [
  'TICKWHEEL_SECRET_KEY',
  'DB_URL',
  'REDIS_URL',
  'REDIS_PASSWORD',
  'REDIS_SENTINEL_PASSWORD',
  'TICKWHEEL_SECRET',
  'SMTP_URL',
  'METRICS_TOKEN',
];

/**
 * Deletes {@link SECRET_SETTINGS} from `env` so nothing spawned inherits them; call it after
 * {@link loadConfig}. /proc/<pid>/environ still shows them: the shell's separate uid is what hides it.
 * @returns the names that were removed.
 */
export function scrubSecretsFromEnv(env: Record<string, string | undefined> = process.env): string[] {
  const removed = SECRET_SETTINGS.filter((name) => env[name] !== undefined);
  for (const name of removed) delete env[name];
  return removed;
}
