import { BlockList } from 'node:net';
import { canonicalIp } from './ip-address.js';

/**
 * One group of destinations refused unless EGRESS_ALLOW names them explicitly (README "Egress policy"):
 * by address (`nets`), by host name (`names`, or a name under one of `suffixes`), on `port` or on every port.
 */
export interface BuiltinRefusal {
  /** Completes "<destination> is …" (e.g. `loopback`, `this cluster's Redis (REDIS_URL)`). */
  label: string;
  nets: BlockList;
  names: readonly string[];
  suffixes: readonly string[];
  port: number | null;
}

/** A service of the cluster itself (its database, its Redis): refused on its port at its name and addresses. */
export interface OwnService {
  label: string;
  name?: string;
  /** Its host name as configured (when not an IP) and its addresses (resolved at start, or the IP). */
  addresses: readonly string[];
  port: number;
}

type Range = readonly [string, number];

function netsOf(ranges: readonly Range[]): BlockList {
  const nets = new BlockList();
  for (const [address, prefix] of ranges) nets.addSubnet(address, prefix, address.includes(':') ? 'ipv6' : 'ipv4');
  return nets;
}

function addressesOf(addresses: readonly string[]): BlockList {
  const nets = new BlockList();
  for (const a of addresses) {
    const ip = canonicalIp(a);
    if (ip) nets.addAddress(ip.address, ip.family === 4 ? 'ipv4' : 'ipv6');
  }
  return nets;
}

/**
 * The fixed ranges, first match naming the refusal: the metadata addresses before link-local (169.254.169.254
 * is both), unspecified and loopback before the reserved IPv4-compatible block ::/96 that holds them.
 * Private ranges (10/8, 172.16/12, 192.168/16, fc00::/7, 100.64/10) are not here: jobs call internal services.
 */
const FIXED: ReadonlyArray<{ label: string; ranges: readonly Range[]; names?: string[]; suffixes?: string[] }> = [
  {
    label: 'a cloud metadata address',
    ranges: [
      ['169.254.169.254', 32],
      ['100.100.100.200', 32],
      ['fd00:ec2::254', 128],
    ],
    names: ['metadata.google.internal', 'metadata'],
  },
  {
    label: 'loopback',
    ranges: [
      ['127.0.0.0', 8],
      ['::1', 128],
    ],
    names: ['localhost'],
    suffixes: ['.localhost'],
  },
  {
    label: 'unspecified',
    ranges: [
      ['0.0.0.0', 8],
      ['::', 128],
    ],
  },
  {
    label: 'link-local',
    ranges: [
      ['169.254.0.0', 16],
      ['fe80::', 10],
    ],
  },
  {
    label: 'multicast',
    ranges: [
      ['224.0.0.0', 4],
      ['ff00::', 8],
    ],
  },
  // 240/4 holds broadcast; ::/96 IPv4-compatible IPv6, 100::/64 discard-only, fec0::/10 old site-local.
  {
    label: 'reserved',
    ranges: [
      ['240.0.0.0', 4],
      ['::', 96],
      ['100::', 64],
      ['fec0::', 10],
    ],
  },
];

/** The built-in refused set: the fixed ranges and names, the cluster's `services` and this host's addresses. */
export function builtinRefusals(ownAddresses: readonly string[], services: readonly OwnService[]): BuiltinRefusal[] {
  const fixed = FIXED.map((f) => ({
    label: f.label,
    nets: netsOf(f.ranges),
    names: f.names ?? [],
    suffixes: f.suffixes ?? [],
    port: null,
  }));
  const own = services.map((s) => ({
    label: s.label,
    nets: addressesOf(s.addresses),
    names: s.name ? [s.name.toLowerCase()] : [],
    suffixes: [],
    port: s.port,
  }));
  return [
    ...fixed,
    ...own,
    { label: 'an address of this host', nets: addressesOf(ownAddresses), names: [], suffixes: [], port: null },
  ];
}
