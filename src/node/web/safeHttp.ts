import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import os from 'node:os';
import { checkHop, checkUrl, isIpLiteral, normalizeHost, type WebHostPolicy } from '../../agent/web/hostPolicy';
import { WebRequestError } from '../../agent/web/webPorts';

/**
 * The Node half of the egress policy: resolves a hop's host, completes the policy with what only
 * Node knows (the machine's interface addresses, the addresses the deny list's names resolve to
 * now) and checks every address with `checkHop`. `egress.ts` (every request) and the browser call it.
 */

/** One resolved address. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses (injectable so tests can make a public name point at loopback). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

/** The system resolver (getaddrinfo, all addresses). */
export const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/** Every address of this machine's network interfaces, read now (they change as networks come and go). */
export function machineAddresses(): string[] {
  return Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

/** Deny-list entries that are plain names (not wildcards, IPs or CIDR blocks): they are resolved at check time. */
function denyNames(policy: WebHostPolicy): string[] {
  return policy.denyHosts.map(normalizeHost).filter((e) => !e.startsWith('*.') && !e.includes('/') && !isIpLiteral(e));
}

/**
 * The policy as checked now: the machine's own addresses (unless given) and the addresses each
 * deny-listed name resolves to, so a denied host is not reached through another name or its IP.
 * A deny-listed name that does not resolve denies no address.
 */
export async function effectivePolicy(policy: WebHostPolicy, resolver: Resolver = systemResolver): Promise<WebHostPolicy> {
  const resolved = await Promise.all(denyNames(policy).map((name) => resolver(name).catch((): ResolvedAddress[] => [])));
  return {
    ...policy,
    ownAddresses: policy.ownAddresses ?? machineAddresses(),
    deniedAddresses: [...(policy.deniedAddresses ?? []), ...resolved.flat().map((a) => a.address)],
  };
}

/** A URL with the checked address to connect to. */
export interface Target {
  url: URL;
  address: ResolvedAddress;
}

/** Checks a URL against the policy, resolves its host and checks every address; throws `WebRequestError` when refused. */
export async function checkedTarget(raw: string, options: { policy: WebHostPolicy; resolver?: Resolver | undefined }): Promise<Target> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebRequestError(`Not a valid URL: ${raw}`);
  }
  const resolver = options.resolver ?? systemResolver;
  const policy = await effectivePolicy(options.policy, resolver);
  const verdict = checkUrl(url, policy);
  if (!verdict.ok) throw new WebRequestError(verdict.reason);
  const host = normalizeHost(url.hostname);
  if (isIpLiteral(host)) return { url, address: { address: host, family: host.includes(':') ? 6 : 4 } };
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolver(host);
  } catch (error) {
    throw new WebRequestError(`Cannot resolve ${host}: ${(error as Error).message}`);
  }
  if (addresses.length === 0) throw new WebRequestError(`Cannot resolve ${host}: no addresses.`);
  // Every address must pass: a name that also points inside the network is refused as a whole.
  for (const a of addresses) {
    const check = checkHop(url, a.address, policy);
    if (!check.ok) throw new WebRequestError(check.reason);
  }
  return { url, address: addresses[0]! };
}

/** A `lookup` that answers with the address already checked, whatever DNS would say now (no DNS rebinding). */
export function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return ((_host: string, opts: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (opts?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
}
