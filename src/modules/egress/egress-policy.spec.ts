import { ValidationError } from '../../common/index.js';
import { EgressPolicy, type EgressVerdict } from './egress-policy.js';
import { buildEgressPolicy } from './egress-resolver.js';

const DEFAULT = EgressPolicy.fromSettings();
const rule = (v: EgressVerdict) => (v.allowed ? 'allowed' : v.rule);
const reason = (v: EgressVerdict) => (v.allowed ? 'allowed' : v.reason);

describe('EgressPolicy', () => {
  describe('the built-in refused set (default settings)', () => {
    it.each([
      'http://127.0.0.1/',
      'http://127.1/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://017700000001/',
      'http://0x7f.1/',
      'http://127.255.255.254:8080/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[0:0:0:0:0:ffff:7f00:1]/',
      'http://[::ffff:0:127.0.0.1]/',
      'http://[64:ff9b::127.0.0.1]/',
      'http://localhost/',
      'http://LOCALHOST./',
      'http://app.localhost:3000/',
    ])('should refuse %s as loopback', (url) => {
      expect(rule(DEFAULT.checkUrl(url))).toBe('loopback');
    });

    it.each([
      ['http://0.0.0.0/', 'unspecified'],
      ['http://0/', 'unspecified'],
      ['http://0.1.2.3/', 'unspecified'],
      ['http://[::]/', 'unspecified'],
      ['http://169.254.169.254/latest/meta-data/', 'a cloud metadata address'],
      ['http://[::ffff:169.254.169.254]/', 'a cloud metadata address'],
      ['http://metadata.google.internal/', 'a cloud metadata address'],
      ['http://metadata/', 'a cloud metadata address'],
      ['http://[fd00:ec2::254]/', 'a cloud metadata address'],
      ['http://100.100.100.200/', 'a cloud metadata address'],
      ['http://169.254.1.1/', 'link-local'],
      ['http://[fe80::1]/', 'link-local'],
      ['http://[FE80::abcd:1]:8080/', 'link-local'],
      ['http://224.0.0.1/', 'multicast'],
      ['http://[ff02::1]/', 'multicast'],
      ['http://255.255.255.255/', 'reserved'],
      ['http://240.0.0.1/', 'reserved'],
      ['http://[::7f00:1]/', 'reserved'],
    ])('should refuse %s as %s', (url, label) => {
      expect(rule(DEFAULT.checkUrl(url))).toBe(label);
    });

    it('should judge a connect-time address in any spelling, and say what refused it and how to allow it', () => {
      expect(reason(DEFAULT.check({ address: '127.0.0.1', port: 6379 }))).toBe(
        '127.0.0.1:6379 is loopback (EGRESS_ALLOW to allow it)',
      );
      expect(reason(DEFAULT.check({ name: 'rebind.example', address: '::ffff:127.0.0.1', port: 80 }))).toBe(
        '127.0.0.1:80 (rebind.example) is loopback (EGRESS_ALLOW to allow it)',
      );
      expect(reason(DEFAULT.check({ address: '[fe80::1%eth0]', port: 80 }))).toBe(
        '[fe80::1]:80 is link-local (EGRESS_ALLOW to allow it)',
      );
      expect(() => DEFAULT.check({ address: 'example.com', port: 80 })).toThrow(/not an IP/);
    });

    it('should allow private ranges, public addresses and names', () => {
      for (const url of [
        'http://10.1.2.3/',
        'http://172.16.0.1:8080/',
        'http://192.168.1.1/',
        'http://[fd12::1]/',
        'http://100.64.0.1/',
        'https://8.8.8.8/',
        'https://api.example.com/',
      ]) {
        expect([url, rule(DEFAULT.checkUrl(url))]).toEqual([url, 'allowed']);
      }
    });

    it('should refuse a scheme other than http or https', () => {
      expect(rule(DEFAULT.checkUrl('ftp://example.com/'))).toBe('scheme');
      expect(rule(DEFAULT.checkUrl('file:///etc/passwd'))).toBe('scheme');
    });

    it(
      "should refuse the cluster's own services on their ports, by address and by name, " +
        "and this host's addresses on every port",
      () => {
        const p = EgressPolicy.fromSettings({
          services: [
            { label: "this cluster's database (DB_URL)", name: 'mariadb', addresses: ['10.0.0.5'], port: 3306 },
          ],
          ownAddresses: ['172.17.0.2', 'fe80::42'],
        });
        expect(reason(p.check({ address: '10.0.0.5', port: 3306 }))).toBe(
          "10.0.0.5:3306 is this cluster's database (DB_URL) (EGRESS_ALLOW to allow it)",
        );
        expect(rule(p.checkUrl('http://mariadb:3306/'))).toBe("this cluster's database (DB_URL)");
        expect(rule(p.checkUrl('http://10.0.0.5:80/'))).toBe('allowed');
        expect(rule(p.checkUrl('http://mariadb/'))).toBe('allowed');
        expect(rule(p.checkUrl('http://172.17.0.2:3000/metrics'))).toBe('an address of this host');
        expect(rule(p.checkUrl('http://172.17.0.2:9999/'))).toBe('an address of this host');
      },
    );
  });

  describe('precedence (README "Egress policy")', () => {
    it('should let an explicit address entry re-open a refused address, on its ports only', () => {
      const p = EgressPolicy.fromSettings({ allow: '*,127.0.0.1:8080,[::1]:9000-9001' });
      expect(rule(p.checkUrl('http://127.0.0.1:8080/'))).toBe('allowed');
      expect(rule(p.checkUrl('http://2130706433:8080/'))).toBe('allowed');
      expect(rule(p.checkUrl('http://127.0.0.1:8081/'))).toBe('loopback');
      expect(rule(p.checkUrl('http://[::1]:9001/'))).toBe('allowed');
      expect(rule(p.checkUrl('http://[::1]:9002/'))).toBe('loopback');
      expect(rule(p.checkUrl('https://example.com/'))).toBe('allowed'); // `*` keeps the rest open
    });

    it('should re-open an own service only for an entry naming its address and its port', () => {
      const services = [{ label: "this cluster's Redis (REDIS_URL)", addresses: ['10.0.0.6'], port: 6379 }];
      const redis = (allow: string) =>
        rule(EgressPolicy.fromSettings({ allow, services }).checkUrl('http://10.0.0.6:6379/'));
      expect(redis('10.0.0.6:6379')).toBe('allowed');
      expect(redis('10.0.0.0/8:6000-7000')).toBe('allowed');
      expect(redis('*')).toBe("this cluster's Redis (REDIS_URL)");
      // An address without a port opens the services on it, not the cluster's own.
      expect(redis('10.0.0.0/8')).toBe("this cluster's Redis (REDIS_URL)");
      expect(redis('*,10.0.0.6')).toBe("this cluster's Redis (REDIS_URL)");
      expect(rule(EgressPolicy.fromSettings({ allow: '10.0.0.6', services }).checkUrl('http://10.0.0.6:8080/'))).toBe(
        'allowed',
      );
    });

    it('should never let a host-name entry re-open what DNS answers for it', () => {
      const p = EgressPolicy.fromSettings({ allow: 'api.example.com,*.corp.example' });
      expect(rule(p.check({ name: 'api.example.com', address: '93.184.216.34', port: 443 }))).toBe('allowed');
      expect(rule(p.check({ name: 'api.example.com', address: '127.0.0.1', port: 443 }))).toBe('loopback');
      expect(rule(p.check({ name: 'x.corp.example', address: '169.254.169.254', port: 80 }))).toBe(
        'a cloud metadata address',
      );
    });

    it('should let `localhost` name itself and the loopback addresses', () => {
      const p = EgressPolicy.fromSettings({ allow: 'localhost:3000' });
      expect(rule(p.checkUrl('http://localhost:3000/health/live'))).toBe('allowed');
      expect(rule(p.check({ name: 'localhost', address: '::1', port: 3000 }))).toBe('allowed');
      expect(rule(p.checkUrl('http://127.0.0.1:3000/'))).toBe('allowed');
      expect(rule(p.checkUrl('http://localhost:6379/'))).toBe('loopback');
      expect(rule(p.checkUrl('https://example.com/'))).toBe('EGRESS_ALLOW');
    });

    it('should refuse whatever EGRESS_DENY names, even what EGRESS_ALLOW names explicitly', () => {
      const p = EgressPolicy.fromSettings({
        allow: '*,127.0.0.1',
        deny: '127.0.0.1:6379,*.evil.example,10.0.0.0/8:22,*:25',
      });
      expect(reason(p.checkUrl('http://127.0.0.1:6379/'))).toBe(
        "127.0.0.1:6379 is refused by EGRESS_DENY entry '127.0.0.1:6379'",
      );
      expect(rule(p.checkUrl('http://127.0.0.1:6380/'))).toBe('allowed');
      expect(rule(p.checkUrl('http://a.b.evil.example/'))).toBe('EGRESS_DENY');
      expect(rule(p.check({ name: 'fine.example', address: '10.1.1.1', port: 22 }))).toBe('EGRESS_DENY');
      expect(rule(p.checkUrl('http://10.1.1.1:23/'))).toBe('allowed');
      expect(rule(p.checkUrl('http://mail.example:25/'))).toBe('EGRESS_DENY');
    });

    it('should allow only what a non-* EGRESS_ALLOW matches, judging names before DNS as far as it can', () => {
      const p = EgressPolicy.fromSettings({ allow: '10.0.0.0/8,api.example.com:443' });
      expect(rule(p.checkUrl('http://10.2.3.4/'))).toBe('allowed');
      expect(reason(p.checkUrl('http://8.8.8.8/'))).toBe('8.8.8.8:80 is not in EGRESS_ALLOW');
      expect(rule(p.checkUrl('https://api.example.com/'))).toBe('allowed');
      // might resolve into 10/8: judged at connect time
      expect(rule(p.checkUrl('https://other.example.com/'))).toBe('allowed');
      expect(rule(p.check({ name: 'other.example.com', address: '8.8.8.8', port: 443 }))).toBe('EGRESS_ALLOW');
      expect(rule(p.check({ name: 'other.example.com', address: '10.0.0.9', port: 443 }))).toBe('allowed');
      const namesOnly = EgressPolicy.fromSettings({ allow: 'api.example.com' });
      expect(rule(namesOnly.checkUrl('https://other.example.com/'))).toBe('EGRESS_ALLOW');
    });

    it('should refuse a bad setting, naming it', () => {
      expect(() => EgressPolicy.fromSettings({ allow: 'ok.example,http://x' })).toThrow(ValidationError);
      expect(() => EgressPolicy.fromSettings({ deny: '10.0.0.0/40' })).toThrow(/10\.0\.0\.0\/40/);
    });
  });

  describe("narrowedTo (an app's egressAllow)", () => {
    const cluster = EgressPolicy.fromSettings({ allow: '*,127.0.0.1:8080', deny: '10.9.0.0/16' });

    it('should change nothing for null, and allow what the cluster allows for [*]', () => {
      expect(cluster.narrowedTo(null)).toBe(cluster);
      expect(rule(cluster.narrowedTo(['*']).checkUrl('https://any.example/'))).toBe('allowed');
    });

    it("should require a match in the app's list", () => {
      const app = cluster.narrowedTo(['api.example.com', '10.0.0.0/8:443']);
      expect(rule(app.checkUrl('https://api.example.com/'))).toBe('allowed');
      expect(rule(app.checkUrl('https://10.1.1.1/'))).toBe('allowed');
      expect(reason(app.checkUrl('http://10.1.1.1/'))).toBe(
        "10.1.1.1:80 is not in the app's egress allow-list (egressAllow)",
      );
      expect(rule(app.check({ name: 'other.example', address: '8.8.8.8', port: 443 }))).toBe('egressAllow');
      expect(rule(cluster.narrowedTo([]).checkUrl('https://api.example.com/'))).toBe('egressAllow');
    });

    it('should never re-open what the cluster refuses', () => {
      expect(rule(cluster.narrowedTo(['127.0.0.1', 'localhost']).checkUrl('http://127.0.0.1:6379/'))).toBe('loopback');
      expect(rule(cluster.narrowedTo(['169.254.169.254']).checkUrl('http://169.254.169.254/'))).toBe(
        'a cloud metadata address',
      );
      expect(rule(cluster.narrowedTo(['10.9.1.1']).checkUrl('http://10.9.1.1/'))).toBe('EGRESS_DENY');
      // the cluster re-opened it
      expect(rule(cluster.narrowedTo(['127.0.0.1']).checkUrl('http://127.0.0.1:8080/'))).toBe('allowed');
      expect(
        rule(EgressPolicy.fromSettings({ allow: 'a.example' }).narrowedTo(['b.example']).checkUrl('http://b.example/')),
      ).toBe('EGRESS_ALLOW');
    });

    it('should intersect narrowings, and refuse a bad entry naming egressAllow', () => {
      const twice = cluster.narrowedTo(['a.example', 'b.example']).narrowedTo(['b.example', 'c.example']);
      expect(['a', 'b', 'c'].map((h) => rule(twice.checkUrl(`http://${h}.example/`)))).toEqual([
        'egressAllow',
        'allowed',
        'egressAllow',
      ]);
      expect(() => cluster.narrowedTo(['ftp://x'])).toThrow(expect.objectContaining({ field: 'egressAllow' }));
    });
  });
});

describe('buildEgressPolicy', () => {
  it(
    'should refuse the database and Redis at the addresses their names resolve to at start, ' + 'on their ports',
    async () => {
      const answers: Record<string, string[]> = {
        'db.internal': ['10.0.0.5'],
        'cache.internal': ['10.0.0.6', 'fd00::6'],
      };
      const p = await buildEgressPolicy(
        {
          allow: [],
          deny: [],
          services: [
            { label: "this cluster's database (DB_URL)", url: 'mysql://u:p@db.internal/tw', defaultPort: 3306 },
            { label: "this cluster's Redis (REDIS_URL)", url: 'redis://cache.internal:6380/0', defaultPort: 6379 },
          ],
        },
        {
          resolver: async (h) =>
            (answers[h] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
          ownAddresses: [],
        },
      );
      expect(rule(p.checkUrl('http://10.0.0.5:3306/'))).toBe("this cluster's database (DB_URL)");
      expect(rule(p.checkUrl('http://[fd00::6]:6380/'))).toBe("this cluster's Redis (REDIS_URL)");
      expect(rule(p.checkUrl('http://10.0.0.6:6379/'))).toBe('allowed');
      expect(rule(p.checkUrl('http://cache.internal:6380/'))).toBe("this cluster's Redis (REDIS_URL)");
    },
  );

  it('should still refuse a service by name when its name does not resolve, and say so', async () => {
    const warnings: string[] = [];
    const p = await buildEgressPolicy(
      {
        allow: [],
        deny: [],
        services: [{ label: "this cluster's database (DB_URL)", url: 'mysql://db.nowhere:3307/x', defaultPort: 3306 }],
      },
      {
        resolver: () => Promise.reject(new Error('getaddrinfo ENOTFOUND db.nowhere')),
        ownAddresses: [],
        warn: (m) => warnings.push(m),
      },
    );
    expect(rule(p.checkUrl('http://db.nowhere:3307/'))).toBe("this cluster's database (DB_URL)");
    expect(warnings).toEqual([expect.stringMatching(/could not resolve db\.nowhere .*ENOTFOUND/)]);
  });

  it("should refuse this host's interface addresses by default", async () => {
    const p = await buildEgressPolicy({ allow: ['*', '127.0.0.1'], deny: [], services: [] });
    const { networkInterfaces } = await import('node:os');
    const other = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && i.family === 'IPv4');
    if (other) expect(rule(p.check({ address: other.address, port: 3000 }))).toBe('an address of this host');
    // re-opened explicitly, though it is also an interface address
    expect(rule(p.check({ address: '127.0.0.1', port: 3000 }))).toBe('allowed');
  });
});
