import { ConfigError, loadConfig } from '../../src/config/index.js';

/** A TICKWHEEL_SECRET_KEY of the right shape (64 hex characters). */
export const KEY = 'ab'.repeat(32);

/** The least settings of the cluster shape: MySQL, Redis and the secret key. */
export const CLUSTER = {
  DB_URL: 'mysql://root@127.0.0.1:3306/test',
  REDIS_URL: 'redis://127.0.0.1:6379',
  TICKWHEEL_SECRET_KEY: KEY,
};

/** Runs loadConfig(env) and returns the ConfigError it throws (fails the test when it throws none or another error). */
export function configErrorOf(env: Record<string, string | undefined>, euid = 0): ConfigError {
  let thrown: unknown;
  try {
    loadConfig(env, euid);
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  return thrown as ConfigError;
}
