import { join, resolve } from 'node:path';
import { Role } from './app-config.js';
import { loadConfig } from './load-config.js';
import { CLUSTER, configErrorOf, KEY } from '../../test/utils/load-config.js';

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

    it('should send no e-mail without SMTP_URL, 60 notifications per app and hour, the callback waits', () => {
      const c = loadConfig({});
      expect([c.smtpUrl, c.smtpFrom]).toEqual([null, 'tickwheel@localhost']);
      expect(c.notifications).toMatchObject({ maxPerHour: 60, smtpTimeoutMs: 10_000, perHost: 4 });
      expect(c.notifications.retryDelaysMs).toEqual([5000, 30_000, 120_000, 600_000, 1_800_000]);
      expect(c.notifications.leaseMs).toBeGreaterThan(3 * c.notifications.smtpTimeoutMs);
      const s = loadConfig({
        SMTP_URL: 'smtps://mailer:pw@smtp.example.com:465',
        SMTP_FROM: 'Tickwheel <tw@example.com>',
        NOTIFY_MAX_PER_HOUR: '5',
        NOTIFY_RETRY_DELAYS_MS: '1000,2000',
      });
      expect([s.smtpUrl, s.smtpFrom, s.notifications.maxPerHour]).toEqual([
        'smtps://mailer:pw@smtp.example.com:465',
        'Tickwheel <tw@example.com>',
        5,
      ]);
      expect(s.notifications.retryDelaysMs).toEqual([1000, 2000]);
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
      expect(configErrorOf({ ...CLUSTER, REDIS_URL: '' }).message).toMatch(/DB_URL is set .* no Redis is/);
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

    it('should let 100 jobs of the namespace have metrics on unless JOB_METRICS_MAX says otherwise (0-1000)', () => {
      expect(loadConfig(CLUSTER).jobMetricsMax).toBe(100);
      expect(loadConfig({ ...CLUSTER, JOB_METRICS_MAX: '0' }).jobMetricsMax).toBe(0);
      expect(() => loadConfig({ ...CLUSTER, JOB_METRICS_MAX: '1001' })).toThrow(/JOB_METRICS_MAX/);
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
});
