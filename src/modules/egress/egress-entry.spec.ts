import { ValidationError } from '../../common/index.js';
import { parseEgressEntry, parseEgressList } from './egress-entry.js';

const v4 = (e: ReturnType<typeof parseEgressEntry>, a: string) => e.nets?.check(a, 'ipv4') ?? false;
const v6 = (e: ReturnType<typeof parseEgressEntry>, a: string) => e.nets?.check(a, 'ipv6') ?? false;

describe('parseEgressEntry', () => {
  it('should read host names, exact and *.suffix, lower-cased, without a trailing dot', () => {
    expect(parseEgressEntry('API.Example.com.')).toMatchObject({
      names: ['api.example.com'],
      nets: null,
      ports: null,
      any: false,
    });
    expect(parseEgressEntry('*.example.com:443')).toMatchObject({
      names: [],
      suffix: '.example.com',
      ports: [443, 443],
    });
  });

  it('should read IPs and CIDRs, IPv4 and IPv6, with or without ports', () => {
    const one = parseEgressEntry('10.1.2.3:8080-8090');
    expect([v4(one, '10.1.2.3'), v4(one, '10.1.2.4'), one.ports]).toEqual([true, false, [8080, 8090]]);
    const cidr = parseEgressEntry('10.0.0.0/8');
    expect([v4(cidr, '10.255.0.1'), v4(cidr, '11.0.0.1'), cidr.ports]).toEqual([true, false, null]);
    const bare6 = parseEgressEntry('fd00::/8');
    expect([v6(bare6, 'fd12::1'), v6(bare6, 'fe80::1'), bare6.ports]).toEqual([true, false, null]);
    const bracketed = parseEgressEntry('[fd00::/8]:443');
    expect([v6(bracketed, 'fd00::5'), bracketed.ports]).toEqual([true, [443, 443]]);
    expect(v6(parseEgressEntry('[::1]'), '::1')).toBe(true);
  });

  it('should take an IPv4-mapped IPv6 entry as the IPv4 address it maps', () => {
    expect(v4(parseEgressEntry('[::ffff:127.0.0.1]:80'), '127.0.0.1')).toBe(true);
    expect(v4(parseEgressEntry('::ffff:10.0.0.0/104'), '10.9.9.9')).toBe(true);
  });

  it('should read * and *:port as every destination', () => {
    expect(parseEgressEntry('*')).toMatchObject({ any: true, ports: null });
    expect(parseEgressEntry('*:25')).toMatchObject({ any: true, ports: [25, 25] });
  });

  it('should make localhost name itself and the loopback addresses', () => {
    const e = parseEgressEntry('localhost:3000');
    expect([e.names, v4(e, '127.0.0.1'), v4(e, '127.9.9.9'), v6(e, '::1'), v4(e, '10.0.0.1'), e.ports]).toEqual([
      ['localhost'],
      true,
      true,
      true,
      false,
      [3000, 3000],
    ]);
  });

  it.each([
    ['http://example.com', /no scheme/],
    ['example.com/path', /no scheme, path/],
    ['exa mple.com', /no scheme, path or spaces/],
    ['example.com:0', /port must be 1-65535/],
    ['example.com:70000', /port must be 1-65535/],
    ['example.com:90-80', /range/],
    ['example.com:http', /port/],
    ['10.0.0.0/33', /prefix length/],
    ['example.com/8', /CIDR/],
    ['fd00::zz', /not an IPv6 address/], // (fd00::1:443 is a valid address: a port needs brackets)
    ['[fd00::1', /without '\]'/],
    ['[fd00::1]443', /only ':port'/],
    ['2130706433', /a\.b\.c\.d/],
    ['0x7f000001', /a\.b\.c\.d/],
    ['127.1', /a\.b\.c\.d/],
    ['-bad-.com', /not a host name/],
    ['*.', /not a host name/],
  ])('should refuse %s', (entry, why) => {
    expect(() => parseEgressEntry(entry)).toThrow(why);
  });
});

describe('parseEgressList', () => {
  it('should split a comma list, skip empty items and note a bare *', () => {
    const l = parseEgressList(' a.example , ,10.0.0.0/8:443,* ', 'EGRESS_ALLOW');
    expect(l.entries.map((e) => e.text)).toEqual(['a.example', '10.0.0.0/8:443', '*']);
    expect(l.star).toBe(true);
    expect(parseEgressList('*:443', 'EGRESS_ALLOW').star).toBe(false);
    expect(parseEgressList(undefined, 'EGRESS_ALLOW')).toEqual({ star: false, entries: [] });
  });

  it('should throw a ValidationError naming the field and the entry', () => {
    let err: unknown;
    try {
      parseEgressList(['ok.example', 'bad entry'], 'egressAllow');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).field).toBe('egressAllow');
    expect((err as ValidationError).message).toMatch(/'bad entry'/);
  });
});
