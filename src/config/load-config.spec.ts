import { join, resolve } from 'node:path';
import { ErrorCode } from '../common/index.js';
import { Role } from './app-config.js';
import { ConfigError, loadConfig } from './load-config.js';
import { SECRET_SETTINGS, scrubSecretsFromEnv } from './secrets.js';

const KEY = 'ab'.repeat(32);
const CLUSTER = {
  DB_URL: 'mysql://root@127.0.0.1:3306/test',
  REDIS_URL: 'redis://127.0.0.1:6379',
  TICKWHEEL_SECRET_KEY: KEY,
};

/** Runs loadConfig(env) and returns the ConfigError it throws (fails the test when it throws none or another error). */
function configErrorOf(env: Record<string, string | undefined>, euid = 0): ConfigError {
  let thrown: unknown;
  try {
    loadConfig(env, euid);
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
      expect([c.egressAllow, c.egressDeny]).toEqual([[], []]);
    });

    it('should read EGRESS_ALLOW and EGRESS_DENY as comma lists of checked entries', () => {
      const c = loadConfig({
        EGRESS_ALLOW: ' *, 127.0.0.1:8080 ,[fd00::/8]:443,*.corp.example',
        EGRESS_DENY: '10.9.0.0/16,evil.example',
      });
      expect(c.egressAllow).toEqual(['*', '127.0.0.1:8080', '[fd00::/8]:443', '*.corp.example']);
      expect(c.egressDeny).toEqual(['10.9.0.0/16', 'evil.example']);
    });

    it('should put the SQLite file in the given DATA_DIR', () => {
      const c = loadConfig({ DATA_DIR: '/tmp/tw-config-spec' });
      expect(c.dataDir).toBe('/tmp/tw-config-spec');
      expect(c.database).toEqual({ type: 'better-sqlite3', path: '/tmp/tw-config-spec/tickwheel.sqlite' });
    });

    it('should treat empty or blank values as unset, for strings as for numbers', () => {
      const c = loadConfig({
        PORT: '',
        ROLES: '',
        TICKWHEEL_ALLOW_SHELL: '',
        DB_URL: '',
        REDIS_URL: ' ',
        TICKWHEEL_NAMESPACE: '',
        NODE_NAME: '',
        TICKWHEEL_SECRET_KEY: '',
        DATA_DIR: '',
      });
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
      const c = loadConfig(
        {
          ...CLUSTER,
          PORT: '8080',
          HEARTBEAT_INTERVAL_MS: '500',
          NODE_OFFLINE_AFTER_MS: '3000',
          TICKWHEEL_ALLOW_SHELL: 'yes',
          LEASE_MS: '5000',
          LEASE_RENEW_MS: '1000',
        },
        0,
      );
      expect(c.http.port).toBe(8080);
      expect(c.heartbeatIntervalMs).toBe(500);
      expect(c.nodeOfflineAfterMs).toBe(3000);
      expect(c.allowShell).toBe(true);
      expect(c.leaseMs).toBe(5000);
      expect(c.leaseRenewMs).toBe(1000);
      expect(loadConfig({ TICKWHEEL_ALLOW_SHELL: 'off' }).allowShell).toBe(false);
    });

    it("should let one app hold 7/8 of an executor's slots unless EXECUTOR_APP_SHARE says so (1 = no bound)", () => {
      expect(loadConfig(CLUSTER).executorAppShare).toBe(0.875);
      expect(loadConfig({ ...CLUSTER, EXECUTOR_APP_SHARE: '0.5' }).executorAppShare).toBe(0.5);
      expect(loadConfig({ ...CLUSTER, EXECUTOR_APP_SHARE: ' .25 ' }).executorAppShare).toBe(0.25);
      expect(loadConfig({ EXECUTOR_APP_SHARE: '1' }).executorAppShare).toBe(1);
    });

    it('should give running work 10 s on shutdown unless EXECUTOR_SHUTDOWN_GRACE_MS says so (0 = none)', () => {
      expect(loadConfig(CLUSTER).executorShutdownGraceMs).toBe(10_000);
      expect(loadConfig({ ...CLUSTER, EXECUTOR_SHUTDOWN_GRACE_MS: '45000' }).executorShutdownGraceMs).toBe(45_000);
      expect(loadConfig({ ...CLUSTER, EXECUTOR_SHUTDOWN_GRACE_MS: '0' }).executorShutdownGraceMs).toBe(0);
    });

    it('should let one job make 3000 instances a minute unless JOB_MAX_INSTANCES_PER_MINUTE says otherwise', () => {
      expect(loadConfig(CLUSTER).jobMaxInstancesPerMinute).toBe(3000);
      expect(loadConfig({ ...CLUSTER, JOB_MAX_INSTANCES_PER_MINUTE: '60000' }).jobMaxInstancesPerMinute).toBe(60_000);
    });

    it('should limit each app to 100 requests/s, bursts of 200, unless RATE_LIMIT_* say so (0 = unlimited)', () => {
      expect(loadConfig(CLUSTER)).toMatchObject({ rateLimitPerSecond: 100, rateLimitBurst: 200 });
      expect(loadConfig({ ...CLUSTER, RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_BURST: '10' })).toMatchObject({
        rateLimitPerSecond: 5,
        rateLimitBurst: 10,
      });
      expect(loadConfig({ ...CLUSTER, RATE_LIMIT_PER_SECOND: '0' }).rateLimitPerSecond).toBe(0);
    });
  });

  it(
    'should cap each app at 10,000 jobs and 100,000 unfinished tasks unless MAX_JOBS_PER_APP / ' +
      'MAX_UNFINISHED_TASKS_PER_APP say otherwise (0 = no limit)',
    () => {
      expect(loadConfig({}).caps).toEqual({ maxJobsPerApp: 10_000, maxUnfinishedTasksPerApp: 100_000 });
      expect(loadConfig({ MAX_JOBS_PER_APP: '25', MAX_UNFINISHED_TASKS_PER_APP: '0' }).caps).toEqual({
        maxJobsPerApp: 25,
        maxUnfinishedTasksPerApp: 0,
      });
    },
  );

  it('should ignore environment variables that are not settings', () => {
    const c = loadConfig({
      PATH: '/usr/bin',
      HOME: '/root',
      PORT_NUMBER: 'abc',
      npm_config_foo: 'x',
      DB_URL_OLD: 'postgres://x',
    });
    expect(c.shape).toBe('standalone');
    expect(c.http.port).toBe(3000);
    expect(c).not.toHaveProperty('PATH');
  });

  describe('bad or contradictory settings', () => {
    const cases: Array<[string, Record<string, string>, string, RegExp]> = [
      ['DB_URL without REDIS_URL', { DB_URL: CLUSTER.DB_URL, TICKWHEEL_SECRET_KEY: KEY }, 'REDIS_URL', /DB_URL is set/],
      [
        'REDIS_URL without DB_URL',
        { REDIS_URL: CLUSTER.REDIS_URL, TICKWHEEL_SECRET_KEY: KEY },
        'DB_URL',
        /REDIS_URL is set/,
      ],
      ['DB_URL postgres://', { ...CLUSTER, DB_URL: 'postgres://u@h/db' }, 'DB_URL', /mysql:\/\//],
      ['REDIS_URL http://', { ...CLUSTER, REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL', /redis:\/\//],
      ['PORT=abc', { PORT: 'abc' }, 'PORT', /integer/],
      ['PORT=70000', { PORT: '70000' }, 'PORT', /65535/],
      ['PORT=-1', { PORT: '-1' }, 'PORT', /less than 0/],
      ['PORT=3000.5', { PORT: '3000.5' }, 'PORT', /integer/],
      ['ROLES=api,worker', { ...CLUSTER, ROLES: 'api,worker' }, 'ROLES', /worker/],
      ["ROLES=' , '", { ...CLUSTER, ROLES: ' , ' }, 'ROLES', /no role/],
      ['standalone with ROLES=executor', { ROLES: 'executor' }, 'ROLES', /standalone/],
      [
        'cluster without TICKWHEEL_SECRET_KEY',
        { DB_URL: CLUSTER.DB_URL, REDIS_URL: CLUSTER.REDIS_URL },
        'TICKWHEEL_SECRET_KEY',
        /required/,
      ],
      [
        'TICKWHEEL_SECRET_KEY of 62 hex chars',
        { ...CLUSTER, TICKWHEEL_SECRET_KEY: 'ab'.repeat(31) },
        'TICKWHEEL_SECRET_KEY',
        /64 hex/,
      ],
      [
        'TICKWHEEL_SECRET_KEY of 66 hex chars',
        { ...CLUSTER, TICKWHEEL_SECRET_KEY: 'ab'.repeat(33) },
        'TICKWHEEL_SECRET_KEY',
        /64 hex/,
      ],
      [
        'TICKWHEEL_SECRET_KEY not hex',
        { ...CLUSTER, TICKWHEEL_SECRET_KEY: 'zz'.repeat(32) },
        'TICKWHEEL_SECRET_KEY',
        /64 hex/,
      ],
      [
        'NODE_OFFLINE_AFTER_MS == HEARTBEAT_INTERVAL_MS',
        { HEARTBEAT_INTERVAL_MS: '5000', NODE_OFFLINE_AFTER_MS: '5000' },
        'NODE_OFFLINE_AFTER_MS',
        /HEARTBEAT_INTERVAL_MS/,
      ],
      [
        'NODE_OFFLINE_AFTER_MS < HEARTBEAT_INTERVAL_MS',
        { HEARTBEAT_INTERVAL_MS: '20000' },
        'NODE_OFFLINE_AFTER_MS',
        /HEARTBEAT_INTERVAL_MS/,
      ],
      ['LEASE_RENEW_MS == LEASE_MS', { LEASE_MS: '10000', LEASE_RENEW_MS: '10000' }, 'LEASE_RENEW_MS', /LEASE_MS/],
      ['LEASE_RENEW_MS > LEASE_MS', { LEASE_MS: '20000' }, 'LEASE_RENEW_MS', /LEASE_MS/],
      ['TICKWHEEL_ALLOW_SHELL=maybe', { TICKWHEEL_ALLOW_SHELL: 'maybe' }, 'TICKWHEEL_ALLOW_SHELL', /boolean/],
      ['HEARTBEAT_INTERVAL_MS=fast', { HEARTBEAT_INTERVAL_MS: 'fast' }, 'HEARTBEAT_INTERVAL_MS', /integer/],
      [
        'TRIGGER_STAGE_LEAD_MS + TRIGGER_SCAN_INTERVAL_MS >= TRIGGER_HORIZON_MS',
        { TRIGGER_STAGE_LEAD_MS: '9000' },
        'TRIGGER_STAGE_LEAD_MS',
        /TRIGGER_HORIZON_MS/,
      ],
      [
        'TRIGGER_HORIZON_MS <= TRIGGER_SCAN_INTERVAL_MS',
        { TRIGGER_HORIZON_MS: '1000', TRIGGER_SCAN_INTERVAL_MS: '1000' },
        'TRIGGER_HORIZON_MS',
        /TRIGGER_SCAN_INTERVAL_MS/,
      ],
      ['TRIGGER_FIRE_PARALLELISM=0', { TRIGGER_FIRE_PARALLELISM: '0' }, 'TRIGGER_FIRE_PARALLELISM', /less than 1/],
      ['TRIGGER_TICK_MS=0', { TRIGGER_TICK_MS: '0' }, 'TRIGGER_TICK_MS', /less than 1/],
      ['DUE_ALERT_AFTER_MS=10', { DUE_ALERT_AFTER_MS: '10' }, 'DUE_ALERT_AFTER_MS', /less than 1000/],
      ['TICKWHEEL_NAMESPACE with a space', { TICKWHEEL_NAMESPACE: 'a b' }, 'TICKWHEEL_NAMESPACE', /1-32/],
      ['LOG_LEVEL=verbose', { LOG_LEVEL: 'verbose' }, 'LOG_LEVEL', /one of/],
      [
        'EXECUTOR_SHUTDOWN_GRACE_MS=-1',
        { EXECUTOR_SHUTDOWN_GRACE_MS: '-1' },
        'EXECUTOR_SHUTDOWN_GRACE_MS',
        /less than 0/,
      ],
      [
        'EXECUTOR_SHUTDOWN_GRACE_MS=2h',
        { EXECUTOR_SHUTDOWN_GRACE_MS: '7200000' },
        'EXECUTOR_SHUTDOWN_GRACE_MS',
        /3600000/,
      ],
      [
        'EGRESS_ALLOW with a URL',
        { EGRESS_ALLOW: '*,http://127.0.0.1:8080/' },
        'EGRESS_ALLOW',
        /'http:\/\/127\.0\.0\.1:8080\/'.*no scheme/,
      ],
      ['EGRESS_ALLOW with a decimal IP', { EGRESS_ALLOW: '2130706433' }, 'EGRESS_ALLOW', /a\.b\.c\.d/],
      ['EGRESS_DENY with a bad port', { EGRESS_DENY: '10.0.0.1:99999' }, 'EGRESS_DENY', /port/],
      ['EGRESS_DENY with a bad CIDR', { EGRESS_DENY: '10.0.0.0/33' }, 'EGRESS_DENY', /prefix length/],
      [
        'JOB_MAX_INSTANCES_PER_MINUTE=0',
        { JOB_MAX_INSTANCES_PER_MINUTE: '0' },
        'JOB_MAX_INSTANCES_PER_MINUTE',
        /less than 1/,
      ],
      [
        'JOB_MAX_INSTANCES_PER_MINUTE=lots',
        { JOB_MAX_INSTANCES_PER_MINUTE: 'lots' },
        'JOB_MAX_INSTANCES_PER_MINUTE',
        /integer/,
      ],
      ['RATE_LIMIT_PER_SECOND=-1', { RATE_LIMIT_PER_SECOND: '-1' }, 'RATE_LIMIT_PER_SECOND', /less than 0/],
      ['RATE_LIMIT_PER_SECOND=2.5', { RATE_LIMIT_PER_SECOND: '2.5' }, 'RATE_LIMIT_PER_SECOND', /integer/],
      ['RATE_LIMIT_BURST=0', { RATE_LIMIT_BURST: '0' }, 'RATE_LIMIT_BURST', /less than 1/],
      ['RATE_LIMIT_BURST=lots', { RATE_LIMIT_BURST: 'lots' }, 'RATE_LIMIT_BURST', /integer/],
      ['EXECUTOR_APP_SHARE=0', { EXECUTOR_APP_SHARE: '0' }, 'EXECUTOR_APP_SHARE', /above 0 and at most 1/],
      ['EXECUTOR_APP_SHARE=1.5', { EXECUTOR_APP_SHARE: '1.5' }, 'EXECUTOR_APP_SHARE', /above 0 and at most 1/],
      ['EXECUTOR_APP_SHARE=-0.5', { EXECUTOR_APP_SHARE: '-0.5' }, 'EXECUTOR_APP_SHARE', /above 0 and at most 1/],
      ['EXECUTOR_APP_SHARE=half', { EXECUTOR_APP_SHARE: 'half' }, 'EXECUTOR_APP_SHARE', /above 0 and at most 1/],
      [
        'EXECUTOR_SHUTDOWN_GRACE_MS=soon',
        { EXECUTOR_SHUTDOWN_GRACE_MS: 'soon' },
        'EXECUTOR_SHUTDOWN_GRACE_MS',
        /integer/,
      ],
      ['TICKWHEEL_SHELL_UID=-1', { TICKWHEEL_SHELL_UID: '-1' }, 'TICKWHEEL_SHELL_UID', /less than 0/],
      ['TICKWHEEL_SHELL_UID=nobody', { TICKWHEEL_SHELL_UID: 'nobody' }, 'TICKWHEEL_SHELL_UID', /integer/],
      ['TICKWHEEL_SHELL_GID=1.5', { TICKWHEEL_SHELL_GID: '1.5' }, 'TICKWHEEL_SHELL_GID', /integer/],
      [
        'TICKWHEEL_SHELL_UNISOLATED=perhaps',
        { TICKWHEEL_SHELL_UNISOLATED: 'perhaps' },
        'TICKWHEEL_SHELL_UNISOLATED',
        /boolean/,
      ],
      [
        'TICKWHEEL_SHELL_UID=0 (root)',
        { TICKWHEEL_ALLOW_SHELL: 'true', TICKWHEEL_SHELL_UID: '0' },
        'TICKWHEEL_SHELL_UID',
        /as root/,
      ],
      [
        'TICKWHEEL_SHELL_GID=0 (root group)',
        { TICKWHEEL_ALLOW_SHELL: 'true', TICKWHEEL_SHELL_GID: '0' },
        'TICKWHEEL_SHELL_GID',
        /root group/,
      ],
      [
        'TICKWHEEL_SHELL_ENV_PASS naming a secret',
        { TICKWHEEL_SHELL_ENV_PASS: 'HTTP_PROXY,DB_URL' },
        'TICKWHEEL_SHELL_ENV_PASS',
        /'DB_URL' is a secret setting/,
      ],
      [
        'TICKWHEEL_SHELL_ENV_PASS with a bad name',
        { TICKWHEEL_SHELL_ENV_PASS: 'A-B' },
        'TICKWHEEL_SHELL_ENV_PASS',
        /not a variable name/,
      ],
      ['MAX_JOBS_PER_APP=-1', { MAX_JOBS_PER_APP: '-1' }, 'MAX_JOBS_PER_APP', /less than 0/],
      [
        'MAX_UNFINISHED_TASKS_PER_APP=lots',
        { MAX_UNFINISHED_TASKS_PER_APP: 'lots' },
        'MAX_UNFINISHED_TASKS_PER_APP',
        /integer/,
      ],
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
  describe('the shell handler (TICKWHEEL_SHELL_*)', () => {
    const SHELL = { TICKWHEEL_ALLOW_SHELL: 'true' };

    it('should run commands as 65534:65534 with no extra variables when the executor is root', () => {
      expect(loadConfig(SHELL, 0).shell).toEqual({ uid: 65534, gid: 65534, unisolated: false, envPass: [] });
      expect(loadConfig({}, 0).shell).toMatchObject({ uid: 65534, gid: 65534 });
    });

    it('should take TICKWHEEL_SHELL_UID/GID and TICKWHEEL_SHELL_ENV_PASS', () => {
      const c = loadConfig(
        {
          ...SHELL,
          TICKWHEEL_SHELL_UID: '1000',
          TICKWHEEL_SHELL_GID: '1001',
          TICKWHEEL_SHELL_ENV_PASS: ' HTTP_PROXY, NO_PROXY,HTTP_PROXY ',
        },
        0,
      );
      expect(c.shell).toEqual({ uid: 1000, gid: 1001, unisolated: false, envPass: ['HTTP_PROXY', 'NO_PROXY'] });
    });

    it('should refuse to start an executor that allows shell as a user other than root, naming the opt-in', () => {
      const err = configErrorOf(SHELL, 1000);
      expect(err.field).toBe('TICKWHEEL_ALLOW_SHELL');
      expect(err.message).toMatch(/runs as uid 1000, not root/);
      expect(err.message).toMatch(/environment .*TICKWHEEL_SECRET_KEY/);
      expect(err.message).toContain('TICKWHEEL_SHELL_UNISOLATED=true');
      expect(configErrorOf({ ...CLUSTER, ...SHELL, ROLES: 'executor' }, 1000).field).toBe('TICKWHEEL_ALLOW_SHELL');
    });

    it('should run commands as this process when not root and TICKWHEEL_SHELL_UNISOLATED=true', () => {
      expect(loadConfig({ ...SHELL, TICKWHEEL_SHELL_UNISOLATED: 'true' }, 1000).shell).toEqual({
        uid: undefined,
        gid: undefined,
        unisolated: true,
        envPass: [],
      });
    });

    it('should not refuse a non-root process that runs no shell commands (shell off, or no executor role)', () => {
      expect(loadConfig({}, 1000).shell.uid).toBeUndefined();
      expect(loadConfig({ ...CLUSTER, ...SHELL, ROLES: 'api,scheduler' }, 1000).allowShell).toBe(true);
    });

    it("should refuse a uid a non-root process cannot switch to, and this process's own uid", () => {
      expect(
        configErrorOf({ ...SHELL, TICKWHEEL_SHELL_UID: '1001', TICKWHEEL_SHELL_UNISOLATED: 'true' }, 1000).message,
      ).toMatch(/TICKWHEEL_SHELL_UID: .*needs root/);
      expect(
        configErrorOf({ ...SHELL, TICKWHEEL_SHELL_GID: '1001', TICKWHEEL_SHELL_UNISOLATED: 'true' }, 1000).field,
      ).toBe('TICKWHEEL_SHELL_GID');
      expect(configErrorOf({ ...SHELL, TICKWHEEL_SHELL_UID: '1000' }, 1000).message).toMatch(/own uid/);
    });

    it('should let an explicit TICKWHEEL_SHELL_UNISOLATED=true run commands as root', () => {
      expect(
        loadConfig(
          { ...SHELL, TICKWHEEL_SHELL_UID: '0', TICKWHEEL_SHELL_GID: '0', TICKWHEEL_SHELL_UNISOLATED: 'yes' },
          0,
        ).shell,
      ).toMatchObject({ uid: 0, gid: 0, unisolated: true });
    });
  });

  describe('scrubSecretsFromEnv', () => {
    it('should delete the secret settings from the given environment and nothing else', () => {
      const env: Record<string, string | undefined> = {
        ...CLUSTER,
        TICKWHEEL_SECRET: 's',
        PATH: '/usr/bin',
        TICKWHEEL_NAMESPACE: 'n',
      };
      expect(scrubSecretsFromEnv(env).sort()).toEqual([...SECRET_SETTINGS].sort());
      expect(env).toEqual({ PATH: '/usr/bin', TICKWHEEL_NAMESPACE: 'n' });
      expect(scrubSecretsFromEnv(env)).toEqual([]);
    });
  });
});
