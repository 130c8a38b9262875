import { BlockList } from 'node:net';
import { ValidationError } from '../../common/index.js';
import { canonicalIp } from './ip-address.js';

/**
 * One entry of an egress list (EGRESS_ALLOW, EGRESS_DENY, `egressAllow`; README "Egress policy"): a host name
 * (exact, or `*.suffix`), an address (IP or CIDR) or any host (`*`), on every port or `:port` / `:low-high`.
 */
export interface EgressEntry {
  text: string;
  /** `*` or `*:port`: every destination (on its ports). */
  any: boolean;
  /** Exact host names it names (lower case, no trailing dot). */
  names: readonly string[];
  /** `*.example.com` → `.example.com`: names under it (not the name itself). */
  suffix?: string;
  /** The addresses it names; null for a name entry. `localhost` names 127.0.0.0/8 and ::1 as well as itself. */
  nets: BlockList | null;
  /** Inclusive port range; null = every port. */
  ports: readonly [number, number] | null;
}

const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?';
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
/** A name the URL parser would read as IPv4 (`2130706433`, `0x7f.1`, `127.1`): refused, to be written a.b.c.d. */
const NUMERIC_HOST = /^(?:0x[0-9a-f]*|[0-9]+)(?:\.(?:0x[0-9a-f]*|[0-9]+))*\.?$/i;

/** The loopback addresses, which the entry `localhost` names besides the name itself. */
export function loopbackNets(): BlockList {
  const nets = new BlockList();
  nets.addSubnet('127.0.0.0', 8, 'ipv4');
  nets.addAddress('::1', 'ipv6');
  return nets;
}

/** Parses `:port` or `:low-high` (1-65535). */
function parsePorts(text: string, entry: string): [number, number] {
  const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text);
  const lo = m ? Number(m[1]) : NaN;
  const hi = m?.[2] !== undefined ? Number(m[2]) : lo;
  if (!m || lo < 1 || hi > 65535 || lo > hi)
    throw new Error(`entry '${entry}': the port must be 1-65535 or a range low-high`);
  return [lo, hi];
}

/** Splits `host[:ports]`, `[ipv6 or cidr][:ports]` or a bare IPv6 address or CIDR (more than one colon, no port). */
function splitHostPort(entry: string): { host: string; ports: [number, number] | null } {
  if (entry.startsWith('[')) {
    const close = entry.indexOf(']');
    if (close < 0) throw new Error(`entry '${entry}': '[' without ']'`);
    const rest = entry.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) throw new Error(`entry '${entry}': only ':port' may follow ']'`);
    return { host: entry.slice(1, close), ports: rest === '' ? null : parsePorts(rest.slice(1), entry) };
  }
  const colons = entry.split(':').length - 1;
  if (colons !== 1) return { host: entry, ports: null };
  const at = entry.indexOf(':');
  return { host: entry.slice(0, at), ports: parsePorts(entry.slice(at + 1), entry) };
}

/** A CIDR `address/prefix` as a BlockList (IPv4 ranges written as IPv4). */
function parseCidr(host: string, entry: string): BlockList {
  const [addr, bits] = host.split('/');
  const ip = /^\d{1,3}$/.test(bits ?? '') && canonicalIp(addr);
  const prefix = Number(bits);
  if (!ip || prefix > (isIpv6Text(addr) ? 128 : 32))
    throw new Error(
      `entry '${entry}': a CIDR is an IP address, '/', then a prefix length (0-32 for IPv4, 0-128 for IPv6)`,
    );
  const nets = new BlockList();
  // A base that carries an IPv4 address (::ffff:10.0.0.0/104) is the IPv4 range it reaches, as destinations are.
  if (ip.family === 4 && isIpv6Text(addr)) nets.addSubnet(ip.address, Math.max(0, prefix - 96), 'ipv4');
  else nets.addSubnet(ip.address, prefix, ip.family === 4 ? 'ipv4' : 'ipv6');
  return nets;
}

function isIpv6Text(text: string): boolean {
  return text.includes(':');
}

/** Parses one entry (trimmed, not empty). @throws Error quoting the entry and saying what is wrong. */
export function parseEgressEntry(raw: string): EgressEntry {
  const text = raw.trim();
  const base = { text, any: false, names: [] as string[], nets: null as BlockList | null };
  if (text === '') throw new Error('an empty entry');
  if (/[\s/]/.test(text.replace(/\/\d+(?=$|\]|:)/, '')) || text.includes('://')) {
    throw new Error(
      `entry '${text}': write a host name, an IP or a CIDR, optionally with :port (no scheme, path or spaces)`,
    );
  }
  const { host, ports } = splitHostPort(text);
  if (host === '*') return { ...base, any: true, ports };
  if (host.includes('/')) return { ...base, nets: parseCidr(host, text), ports };
  const ip = canonicalIp(host);
  if (ip) {
    const nets = new BlockList();
    nets.addAddress(ip.address, ip.family === 4 ? 'ipv4' : 'ipv6');
    return { ...base, nets, ports };
  }
  const name = host.toLowerCase().replace(/\.$/, '');
  if (isIpv6Text(name))
    throw new Error(`entry '${text}': not an IPv6 address (with a port, write it in brackets: [fd00::1]:443)`);
  if (NUMERIC_HOST.test(name)) throw new Error(`entry '${text}': write an IPv4 address as a.b.c.d`);
  const suffix = name.startsWith('*.') ? name.slice(1) : undefined;
  if (!HOST_NAME.test(suffix ? suffix.slice(1) : name)) throw new Error(`entry '${text}': not a host name, IP or CIDR`);
  if (suffix) return { ...base, suffix, ports };
  return { ...base, names: [name], nets: name === 'localhost' ? loopbackNets() : null, ports };
}

/** A parsed egress list: its entries, and `star` when one of them is a bare `*` (every destination, every port). */
export interface EgressList {
  star: boolean;
  entries: readonly EgressEntry[];
}

/**
 * Parses a list of entries (a comma-separated setting, or an array); empty items are skipped. What an empty
 * list means is the caller's. @throws ValidationError(field) naming the first bad entry.
 */
export function parseEgressList(raw: string | readonly string[] | undefined, field: string): EgressList {
  const items = (typeof raw === 'string' ? raw.split(',') : (raw ?? [])).map((s) => s.trim()).filter((s) => s !== '');
  const entries: EgressEntry[] = [];
  for (const item of items) {
    try {
      entries.push(parseEgressEntry(item));
    } catch (err) {
      throw new ValidationError(field, (err as Error).message);
    }
  }
  return { star: entries.some((e) => e.any && e.ports === null), entries };
}
