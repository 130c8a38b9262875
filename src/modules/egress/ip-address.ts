import { isIP } from 'node:net';

/** An IP address in one canonical text: IPv4 dotted quad, IPv6 lower case and compressed (no brackets, no zone). */
export interface CanonicalIp {
  address: string;
  family: 4 | 6;
}

/**
 * The canonical form of the IP literal `text`, or null when it is not one. Brackets and an IPv6 zone
 * (`[fe80::1%eth0]`) are dropped. An IPv6 address that carries an IPv4 one a connection would reach
 * (IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, RFC 6052) becomes
 * that IPv4 address, so one rule on 127.0.0.0/8 covers every spelling. IPv4 must be a dotted quad here: the
 * other spellings (`127.1`, `2130706433`, `0x7f000001`) are normalised by the URL parser before this is asked.
 */
export function canonicalIp(text: string): CanonicalIp | null {
  let t = text.trim();
  if (t.startsWith('[') && t.endsWith(']')) t = t.slice(1, -1);
  const zone = t.indexOf('%');
  if (zone >= 0) t = t.slice(0, zone);
  const family = isIP(t);
  if (family === 4) return { address: t, family: 4 };
  if (family !== 6) return null;
  // The WHATWG URL serialiser writes IPv6 in its canonical form (RFC 5952).
  const canonical = new URL(`http://[${t}]/`).hostname.slice(1, -1);
  const g = expandIpv6(canonical);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const embedded = `${g[6] >> 8}.${g[6] & 0xff}.${g[7] >> 8}.${g[7] & 0xff}`;
  if (zeros(0, 5) && g[5] === 0xffff) return { address: embedded, family: 4 }; // ::ffff:a.b.c.d
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return { address: embedded, family: 4 }; // ::ffff:0:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return { address: embedded, family: 4 }; // 64:ff9b::a.b.c.d
  return { address: canonical, family: 6 };
}

/** The 8 groups of a canonical IPv6 address (hex groups only, as the URL serialiser writes them). */
function expandIpv6(canonical: string): number[] {
  const [head, tail] = canonical.includes('::') ? canonical.split('::') : [canonical, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((x) => parseInt(x, 16));
}

/** `host:port` as written in a URL: IPv6 in brackets. */
export function hostPort(host: string, port: number): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}
