import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import type { OwnService } from './builtin-refusals.js';
import { EgressPolicy } from './egress-policy.js';
import { canonicalIp } from './ip-address.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address of a host name, in the resolver's order (injectable: tests rebind). @throws the DNS error. */
export type EgressResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every address. */
export const systemResolver: EgressResolver = (hostname) => lookup(hostname, { all: true });

/** Every address of this host's network interfaces. */
export function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

/** What {@link buildEgressPolicy} reads: the settings and the cluster's own service URLs. */
export interface EgressSettings {
  allow: readonly string[];
  deny: readonly string[];
  /** e.g. `{ label: "this cluster's database (DB_URL)", url: 'mysql://…', defaultPort: 3306 }`. */
  services: ReadonlyArray<{ label: string; url: string; defaultPort: number }>;
}

/**
 * The cluster's policy: the settings, this host's interface addresses, and each service's host:port with its
 * name resolved now (a name that does not resolve is still refused by name; `warn` says so).
 * @throws ValidationError naming EGRESS_ALLOW or EGRESS_DENY.
 */
export async function buildEgressPolicy(
  settings: EgressSettings,
  opts: { resolver?: EgressResolver; ownAddresses?: readonly string[]; warn?: (message: string) => void } = {},
): Promise<EgressPolicy> {
  const resolver = opts.resolver ?? systemResolver;
  const services: OwnService[] = await Promise.all(
    settings.services.map(async (s): Promise<OwnService> => {
      const u = new URL(s.url);
      const port = Number(u.port || s.defaultPort);
      const ip = canonicalIp(u.hostname);
      if (ip) return { label: s.label, addresses: [ip.address], port };
      const answers = await resolver(u.hostname).catch((err: Error) => {
        opts.warn?.(
          `egress policy: could not resolve ${u.hostname} (${s.label}): ${err.message}; refusing it by name only`,
        );
        return [];
      });
      return { label: s.label, name: u.hostname, addresses: answers.map((a) => a.address), port };
    }),
  );
  return EgressPolicy.fromSettings({
    allow: settings.allow,
    deny: settings.deny,
    services,
    ownAddresses: opts.ownAddresses ?? interfaceAddresses(),
  });
}
