import { ErrorCode } from '../common/index.js';
import { CLUSTER, configErrorOf, KEY } from '../../test/utils/load-config.js';

describe('loadConfig', () => {
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
      ['METRICS_PORT = PORT', { PORT: '8080', METRICS_PORT: '8080' }, 'METRICS_PORT', /must differ from PORT/],
      ['METRICS_PORT = default PORT', { METRICS_PORT: '3000' }, 'METRICS_PORT', /must differ from PORT \(3000\)/],
      ['METRICS_TOKEN too short', { METRICS_TOKEN: 'short' }, 'METRICS_TOKEN', /16-256 printable/],
      ['METRICS_TOKEN with a space', { METRICS_TOKEN: 'a token with spaces in' }, 'METRICS_TOKEN', /no space/],
      ['SMTP_URL http://', { SMTP_URL: 'http://smtp.example.com' }, 'SMTP_URL', /smtp:\/\//],
      ['SMTP_URL with a path', { SMTP_URL: 'smtp://smtp.example.com/x' }, 'SMTP_URL', /smtps:\/\//],
      ['SMTP_FROM not an address', { SMTP_FROM: 'tickwheel' }, 'SMTP_FROM', /e-mail address/],
      ['NOTIFY_MAX_PER_HOUR=0', { NOTIFY_MAX_PER_HOUR: '0' }, 'NOTIFY_MAX_PER_HOUR', /less than 1/],
      ['NOTIFY_RETRY_DELAYS_MS=5s', { NOTIFY_RETRY_DELAYS_MS: '5s' }, 'NOTIFY_RETRY_DELAYS_MS', /at most 20/],
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
        /one identity shared by every app/,
      ],
      [
        'TICKWHEEL_SHELL_GID=0 (root group)',
        { TICKWHEEL_ALLOW_SHELL: 'true', TICKWHEEL_SHELL_GID: '0' },
        'TICKWHEEL_SHELL_GID',
        /one identity shared by every app/,
      ],
      [
        'TICKWHEEL_SHELL_UID_RANGE holding 65534',
        { TICKWHEEL_SHELL_UID_RANGE: '60000-70000' },
        'TICKWHEEL_SHELL_UID_RANGE',
        /holds 65534/,
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
});
