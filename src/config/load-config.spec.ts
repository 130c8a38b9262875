import { join, resolve } from 'node:path';
import { ErrorCode } from '../common/index.js';
import { Role } from './app-config.js';
import { ConfigError, loadConfig } from './load-config.js';

const KEY = 'ab'.repeat(32);
const CLUSTER = { DB_URL: 'mysql://root@127.0.0.1:3306/test', REDIS_URL: 'redis://127.0.0.1:6379', TICKWHEEL_SECRET_KEY: KEY };

/** Runs loadConfig(env) and returns the ConfigError it throws (fails the test when it throws none or another error). */
function configErrorOf(env: Record<string, string | undefined>): ConfigError {
  let thrown: unknown;
  try {
    loadConfig(env);
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  return thrown as ConfigError;
}

describe('loadConfig', () => {
  describe('defaults', () => {
    it('should be standalone with all roles, port 3000 and the SQLite file under DATA_DIR when nothing is set', () => {
      const c = loadConfig({});
      expect(c.shape).toBe('standalone');
      expect([...c.roles].sort()).toEqual([Role.API, Role.EXECUTOR, Role.SCHEDULER]);
      expect(c.http).toEqual({ port: 3000, host: '0.0.0.0' });
      expect(c.dataDir).toBe(resolve('./data'));
      expect(c.database).toEqual({ type: 'better-sqlite3', path: join(resolve('./data'), 'tickwheel.sqlite') });
      expect(c.redisUrl).toBeUndefined();
      expect(c.secretKeyHex).toBeUndefined();
      expect(c.namespace).toBe('default');
      expect(c.allowShell).toBe(false);
      expect(c.leaseRenewMs).toBeLessThan(c.leaseMs);
      expect(c.nodeOfflineAfterMs).toBeGreaterThan(c.heartbeatIntervalMs);
      expect(c.signatureWindowMs).toBe(300_000);
    });

    it('should put the SQLite file in the given DATA_DIR', () => {
      const c = loadConfig({ DATA_DIR: '/tmp/tw-config-spec' });
      expect(c.dataDir).toBe('/tmp/tw-config-spec');
      expect(c.database).toEqual({ type: 'better-sqlite3', path: '/tmp/tw-config-spec/tickwheel.sqlite' });
    });

    it('should treat empty or blank values as unset, for strings as for numbers', () => {
      const c = loadConfig({ PORT: '', ROLES: '', TICKWHEEL_ALLOW_SHELL: '', DB_URL: '', REDIS_URL: ' ', TICKWHEEL_NAMESPACE: '', NODE_NAME: '', TICKWHEEL_SECRET_KEY: '', DATA_DIR: '' });
      expect(c.shape).toBe('standalone');
      expect(c.http.port).toBe(3000);
      expect(c.roles).toHaveLength(3);
      expect(c.allowShell).toBe(false);
      expect(c.namespace).toBe('default');
      expect(c.nodeName.length).toBeGreaterThan(0);
      expect(c.dataDir).toBe(resolve('./data'));
      expect(configErrorOf({ ...CLUSTER, REDIS_URL: '' }).message).toMatch(/DB_URL is set .* REDIS_URL is not/);
    });
  });

  describe('cluster shape', () => {
    it('should be cluster when DB_URL, REDIS_URL and TICKWHEEL_SECRET_KEY are set', () => {
      const c = loadConfig(CLUSTER);
      expect(c.shape).toBe('cluster');
      expect(c.database).toEqual({ type: 'mysql', url: CLUSTER.DB_URL });
      expect(c.redisUrl).toBe(CLUSTER.REDIS_URL);
      expect(c.secretKeyHex).toBe(KEY);
    });

    it('should accept any subset of roles in the cluster shape, deduplicated and case-insensitive', () => {
      expect(loadConfig({ ...CLUSTER, ROLES: 'executor' }).roles).toEqual([Role.EXECUTOR]);
      expect(loadConfig({ ...CLUSTER, ROLES: ' API , scheduler,api ' }).roles).toEqual([Role.API, Role.SCHEDULER]);
    });

    it('should parse numbers and booleans', () => {
      const c = loadConfig({ ...CLUSTER, PORT: '8080', HEARTBEAT_INTERVAL_MS: '500', NODE_OFFLINE_AFTER_MS: '3000', TICKWHEEL_ALLOW_SHELL: 'yes', LEASE_MS: '5000', LEASE_RENEW_MS: '1000' });
      expect(c.http.port).toBe(8080);
      expect(c.heartbeatIntervalMs).toBe(500);
      expect(c.nodeOfflineAfterMs).toBe(3000);
      expect(c.allowShell).toBe(true);
      expect(c.leaseMs).toBe(5000);
      expect(c.leaseRenewMs).toBe(1000);
      expect(loadConfig({ TICKWHEEL_ALLOW_SHELL: 'off' }).allowShell).toBe(false);
    });

    it('should give running work 10 s on shutdown unless EXECUTOR_SHUTDOWN_GRACE_MS says otherwise (0 hands it back at once)', () => {
      expect(loadConfig(CLUSTER).executorShutdownGraceMs).toBe(10_000);
      expect(loadConfig({ ...CLUSTER, EXECUTOR_SHUTDOWN_GRACE_MS: '45000' }).executorShutdownGraceMs).toBe(45_000);
      expect(loadConfig({ ...CLUSTER, EXECUTOR_SHUTDOWN_GRACE_MS: '0' }).executorShutdownGraceMs).toBe(0);
    });
  });

  it('should cap each app at 10,000 jobs and 100,000 unfinished tasks unless MAX_JOBS_PER_APP / MAX_UNFINISHED_TASKS_PER_APP say otherwise (0 = no limit)', () => {
    expect(loadConfig({}).caps).toEqual({ maxJobsPerApp: 10_000, maxUnfinishedTasksPerApp: 100_000 });
    expect(loadConfig({ MAX_JOBS_PER_APP: '25', MAX_UNFINISHED_TASKS_PER_APP: '0' }).caps).toEqual({ maxJobsPerApp: 25, maxUnfinishedTasksPerApp: 0 });
  });

  it('should ignore environment variables that are not settings', () => {
    const c = loadConfig({ PATH: '/usr/bin', HOME: '/root', PORT_NUMBER: 'abc', npm_config_foo: 'x', DB_URL_OLD: 'postgres://x' });
    expect(c.shape).toBe('standalone');
    expect(c.http.port).toBe(3000);
    expect(c).not.toHaveProperty('PATH');
  });

  describe('bad or contradictory settings', () => {
    const cases: Array<[string, Record<string, string>, string, RegExp]> = [
      ['DB_URL without REDIS_URL', { DB_URL: CLUSTER.DB_URL, TICKWHEEL_SECRET_KEY: KEY }, 'REDIS_URL', /DB_URL is set/],
      ['REDIS_URL without DB_URL', { REDIS_URL: CLUSTER.REDIS_URL, TICKWHEEL_SECRET_KEY: KEY }, 'DB_URL', /REDIS_URL is set/],
      ['DB_URL postgres://', { ...CLUSTER, DB_URL: 'postgres://u@h/db' }, 'DB_URL', /mysql:\/\//],
      ['REDIS_URL http://', { ...CLUSTER, REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL', /redis:\/\//],
      ['PORT=abc', { PORT: 'abc' }, 'PORT', /integer/],
      ['PORT=70000', { PORT: '70000' }, 'PORT', /65535/],
      ['PORT=-1', { PORT: '-1' }, 'PORT', /less than 0/],
      ['PORT=3000.5', { PORT: '3000.5' }, 'PORT', /integer/],
      ['ROLES=api,worker', { ...CLUSTER, ROLES: 'api,worker' }, 'ROLES', /worker/],
      ["ROLES=' , '", { ...CLUSTER, ROLES: ' , ' }, 'ROLES', /no role/],
      ['standalone with ROLES=executor', { ROLES: 'executor' }, 'ROLES', /standalone/],
      ['cluster without TICKWHEEL_SECRET_KEY', { DB_URL: CLUSTER.DB_URL, REDIS_URL: CLUSTER.REDIS_URL }, 'TICKWHEEL_SECRET_KEY', /required/],
      ['TICKWHEEL_SECRET_KEY of 62 hex chars', { ...CLUSTER, TICKWHEEL_SECRET_KEY: 'ab'.repeat(31) }, 'TICKWHEEL_SECRET_KEY', /64 hex/],
      ['TICKWHEEL_SECRET_KEY of 66 hex chars', { ...CLUSTER, TICKWHEEL_SECRET_KEY: 'ab'.repeat(33) }, 'TICKWHEEL_SECRET_KEY', /64 hex/],
      ['TICKWHEEL_SECRET_KEY not hex', { ...CLUSTER, TICKWHEEL_SECRET_KEY: 'zz'.repeat(32) }, 'TICKWHEEL_SECRET_KEY', /64 hex/],
      ['NODE_OFFLINE_AFTER_MS == HEARTBEAT_INTERVAL_MS', { HEARTBEAT_INTERVAL_MS: '5000', NODE_OFFLINE_AFTER_MS: '5000' }, 'NODE_OFFLINE_AFTER_MS', /HEARTBEAT_INTERVAL_MS/],
      ['NODE_OFFLINE_AFTER_MS < HEARTBEAT_INTERVAL_MS', { HEARTBEAT_INTERVAL_MS: '20000' }, 'NODE_OFFLINE_AFTER_MS', /HEARTBEAT_INTERVAL_MS/],
      ['LEASE_RENEW_MS == LEASE_MS', { LEASE_MS: '10000', LEASE_RENEW_MS: '10000' }, 'LEASE_RENEW_MS', /LEASE_MS/],
      ['LEASE_RENEW_MS > LEASE_MS', { LEASE_MS: '20000' }, 'LEASE_RENEW_MS', /LEASE_MS/],
      ['TICKWHEEL_ALLOW_SHELL=maybe', { TICKWHEEL_ALLOW_SHELL: 'maybe' }, 'TICKWHEEL_ALLOW_SHELL', /boolean/],
      ['HEARTBEAT_INTERVAL_MS=fast', { HEARTBEAT_INTERVAL_MS: 'fast' }, 'HEARTBEAT_INTERVAL_MS', /integer/],
      ['TRIGGER_STAGE_LEAD_MS + TRIGGER_SCAN_INTERVAL_MS >= TRIGGER_HORIZON_MS', { TRIGGER_STAGE_LEAD_MS: '9000' }, 'TRIGGER_STAGE_LEAD_MS', /TRIGGER_HORIZON_MS/],
      ['TRIGGER_HORIZON_MS <= TRIGGER_SCAN_INTERVAL_MS', { TRIGGER_HORIZON_MS: '1000', TRIGGER_SCAN_INTERVAL_MS: '1000' }, 'TRIGGER_HORIZON_MS', /TRIGGER_SCAN_INTERVAL_MS/],
      ['TRIGGER_FIRE_PARALLELISM=0', { TRIGGER_FIRE_PARALLELISM: '0' }, 'TRIGGER_FIRE_PARALLELISM', /less than 1/],
      ['TRIGGER_TICK_MS=0', { TRIGGER_TICK_MS: '0' }, 'TRIGGER_TICK_MS', /less than 1/],
      ['DUE_ALERT_AFTER_MS=10', { DUE_ALERT_AFTER_MS: '10' }, 'DUE_ALERT_AFTER_MS', /less than 1000/],
      ['TICKWHEEL_NAMESPACE with a space', { TICKWHEEL_NAMESPACE: 'a b' }, 'TICKWHEEL_NAMESPACE', /1-32/],
      ['LOG_LEVEL=verbose', { LOG_LEVEL: 'verbose' }, 'LOG_LEVEL', /one of/],
      ['EXECUTOR_SHUTDOWN_GRACE_MS=-1', { EXECUTOR_SHUTDOWN_GRACE_MS: '-1' }, 'EXECUTOR_SHUTDOWN_GRACE_MS', /less than 0/],
      ['EXECUTOR_SHUTDOWN_GRACE_MS=2h', { EXECUTOR_SHUTDOWN_GRACE_MS: '7200000' }, 'EXECUTOR_SHUTDOWN_GRACE_MS', /3600000/],
      ['EXECUTOR_SHUTDOWN_GRACE_MS=soon', { EXECUTOR_SHUTDOWN_GRACE_MS: 'soon' }, 'EXECUTOR_SHUTDOWN_GRACE_MS', /integer/],
      ['MAX_JOBS_PER_APP=-1', { MAX_JOBS_PER_APP: '-1' }, 'MAX_JOBS_PER_APP', /less than 0/],
      ['MAX_UNFINISHED_TASKS_PER_APP=lots', { MAX_UNFINISHED_TASKS_PER_APP: 'lots' }, 'MAX_UNFINISHED_TASKS_PER_APP', /integer/],
    ];

    it.each(cases)('should refuse %s with a ConfigError naming the setting', (_name, env, setting, detail) => {
      const err = configErrorOf(env);
      expect(err.field).toBe(setting);
      expect(err.code).toBe(ErrorCode.CONFIG);
      expect(err.message).toContain(`Invalid setting ${setting}:`);
      expect(err.message).toMatch(detail);
    });

    it('should quote the bad value in the message', () => {
      expect(configErrorOf({ PORT: 'abc' }).message).toContain("'abc'");
      expect(configErrorOf({ TICKWHEEL_ALLOW_SHELL: 'maybe' }).message).toContain("'maybe'");
    });
  });
});
