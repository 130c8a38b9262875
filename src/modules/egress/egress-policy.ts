import { ErrorCode, SchedulerError } from '../../common/index.js';
import { type BuiltinRefusal, builtinRefusals, type OwnService } from './builtin-refusals.js';
import { type EgressEntry, type EgressList, parseEgressList } from './egress-entry.js';
import { type CanonicalIp, canonicalIp, hostPort } from './ip-address.js';

/** An outbound destination: the address to connect to (and the URL's host name), or before DNS the name alone. */
export interface EgressDestination {
  name?: string;
  address?: string;
  port: number;
}

/** Why a destination is refused: `reason` is the whole sentence ("127.0.0.1:6379 is loopback (EGRESS_ALLOW …)"). */
export interface EgressRefusal {
  allowed: false;
  destination: string; // `address:port`, `address:port (name)` or `name:port`
  rule: string; // a built-in label (`loopback`), `EGRESS_DENY`, `EGRESS_ALLOW`, `egressAllow` or `scheme`
  reason: string;
}

export type EgressVerdict = { allowed: true } | EgressRefusal;

/** A refused outbound call (not worth retrying); `context` names the call or redirect (`redirect 2 to http://x: `). */
export class EgressRefusedError extends SchedulerError {
  constructor(
    readonly refusal: EgressRefusal,
    readonly context = '',
  ) {
    super(ErrorCode.FORBIDDEN, `${context}egress refused: ${refusal.reason}`, undefined, {
      destination: refusal.destination,
      rule: refusal.rule,
    });
  }
}

/** Settings of {@link EgressPolicy}. */
export interface EgressPolicyOptions {
  /** EGRESS_ALLOW and EGRESS_DENY entries (a comma list or an array); allow empty or `*` = anything not refused. */
  allow?: string | readonly string[];
  deny?: string | readonly string[];
  /** This host's addresses (refused on every port) and the cluster's database and Redis (on their ports). */
  ownAddresses?: readonly string[];
  services?: readonly OwnService[];
}

interface Cluster {
  allowAny: boolean;
  allow: readonly EgressEntry[];
  deny: readonly EgressEntry[];
  builtin: readonly BuiltinRefusal[];
}

interface Dest {
  name?: string;
  ip?: CanonicalIp;
  port: number;
}

const ALLOWED: EgressVerdict = { allowed: true };

const portIn = (e: EgressEntry, port: number) => e.ports === null || (port >= e.ports[0] && port <= e.ports[1]);
const nameIn = (e: EgressEntry, name?: string) =>
  name !== undefined && (e.names.includes(name) || (e.suffix !== undefined && name.endsWith(e.suffix)));
const addrIn = (e: EgressEntry, ip?: CanonicalIp) =>
  ip !== undefined && e.nets !== null && e.nets.check(ip.address, ip.family === 4 ? 'ipv4' : 'ipv6');
const matches = (e: EgressEntry, d: Dest) => portIn(e, d.port) && (e.any || nameIn(e, d.name) || addrIn(e, d.ip));

/**
 * Which destinations outbound calls made for a client may reach (README "Egress policy"; docs/tenancy.md). In order:
 * 1. an EGRESS_DENY entry matching the name or the address refuses;
 * 2. the built-in refused set (loopback, unspecified, link-local, metadata, multicast, reserved, this host's
 *    addresses, the cluster's database and Redis) refuses, unless an explicit EGRESS_ALLOW entry re-opens it:
 *    an address or CIDR entry for a refused address, a host-name entry for a refused name (`localhost`
 *    names itself and the loopback addresses); the cluster's own services only by an entry that names their
 *    port too. A host-name entry never re-opens an address: what DNS answers for an allowed name is still checked;
 * 3. EGRESS_ALLOW empty or `*` allows the rest; otherwise an entry must match;
 * 4. each narrowing ({@link narrowedTo}) must match too; it can never re-open what 1-3 refuse.
 * Immutable; check() is synchronous and does no I/O.
 */
export class EgressPolicy {
  private constructor(
    private readonly cluster: Cluster,
    private readonly narrowing: readonly EgressList[],
  ) {}

  /** @throws ValidationError naming EGRESS_ALLOW or EGRESS_DENY and the bad entry. */
  static fromSettings(opts: EgressPolicyOptions = {}): EgressPolicy {
    const allow = parseEgressList(opts.allow, 'EGRESS_ALLOW');
    const deny = parseEgressList(opts.deny, 'EGRESS_DENY');
    return new EgressPolicy(
      {
        allowAny: allow.star || allow.entries.length === 0,
        allow: allow.entries,
        deny: deny.entries,
        builtin: builtinRefusals(opts.ownAddresses ?? [], opts.services ?? []),
      },
      [],
    );
  }

  /**
   * This policy limited to what `entries` match (an app's `egressAllow`; null = not narrowed, `[]` = nothing).
   * @throws ValidationError naming `egressAllow` and the bad entry.
   */
  narrowedTo(entries: readonly string[] | null): EgressPolicy {
    if (entries === null) return this;
    return new EgressPolicy(this.cluster, [...this.narrowing, parseEgressList(entries, 'egressAllow')]);
  }

  /**
   * Judges one destination. With an address, that address is judged (connect time, or an IP in the URL);
   * with only a name, what can be judged without DNS: the name's own rules, and whether an allow-list that
   * holds only names could match it at all (an address entry might match after DNS: then it passes here).
   * @throws Error when `address` is given and is not an IP.
   */
  check(dest: EgressDestination): EgressVerdict {
    const ip = dest.address === undefined ? undefined : (canonicalIp(dest.address) ?? undefined);
    if (dest.address !== undefined && !ip) throw new Error(`not an IP address: '${dest.address}'`);
    const name =
      dest.name === undefined || canonicalIp(dest.name) ? undefined : dest.name.toLowerCase().replace(/\.$/, '');
    const d: Dest = { name, ip, port: dest.port };
    const { allow, deny, builtin, allowAny } = this.cluster;
    const denied = deny.find((e) => matches(e, d));
    if (denied) return refuse(d, 'EGRESS_DENY', `is refused by EGRESS_DENY entry '${denied.text}'`);
    for (const r of builtin) {
      if (r.port !== null && r.port !== d.port) continue;
      const byName = name !== undefined && (r.names.includes(name) || r.suffixes.some((s) => name.endsWith(s)));
      const byAddress = ip !== undefined && r.nets.check(ip.address, ip.family === 4 ? 'ipv4' : 'ipv6');
      // A service refused on one port (database, Redis) is re-opened only by an entry naming that port.
      const reopens = (e: EgressEntry) => portIn(e, d.port) && (r.port === null || e.ports !== null);
      const reopened =
        (byName ? allow.some((e) => reopens(e) && nameIn(e, name)) : true) &&
        (byAddress ? allow.some((e) => reopens(e) && addrIn(e, ip)) : true);
      if ((byName || byAddress) && !reopened) return refuse(d, r.label, `is ${r.label} (EGRESS_ALLOW to allow it)`);
    }
    if (!allowAny && !inList(allow, d)) return refuse(d, 'EGRESS_ALLOW', 'is not in EGRESS_ALLOW');
    for (const list of this.narrowing) {
      if (!list.star && !inList(list.entries, d))
        return refuse(d, 'egressAllow', "is not in the app's egress allow-list (egressAllow)");
    }
    return ALLOWED;
  }

  /** {@link check} of a URL before DNS (an IP in full, a name as far as it can be); only http(s) schemes. */
  checkUrl(url: string | URL): EgressVerdict {
    const u = typeof url === 'string' ? new URL(url) : url;
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      return {
        allowed: false,
        destination: u.host,
        rule: 'scheme',
        reason: `${u.protocol}//${u.host} is not http or https`,
      };
    }
    const port = urlPort(u);
    const ip = canonicalIp(u.hostname);
    return ip ? this.check({ address: ip.address, port }) : this.check({ name: u.hostname, port });
  }
}

/** The port a URL connects to (its own, or its scheme's default). */
export function urlPort(u: URL): number {
  return Number(u.port || (u.protocol === 'https:' ? 443 : 80));
}

/** Whether an entry matches; before DNS (no address), an address entry on the port might still match, so it passes. */
function inList(entries: readonly EgressEntry[], d: Dest): boolean {
  return (
    entries.some((e) => matches(e, d)) ||
    (d.ip === undefined && entries.some((e) => e.nets !== null && portIn(e, d.port)))
  );
}

function refuse(d: Dest, rule: string, why: string): EgressRefusal {
  const destination = d.ip ? `${hostPort(d.ip.address, d.port)}${d.name ? ` (${d.name})` : ''}` : `${d.name}:${d.port}`;
  return { allowed: false, destination, rule, reason: `${destination} ${why}` };
}
