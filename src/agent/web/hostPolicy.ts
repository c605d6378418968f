/**
 * The egress policy: which hosts and addresses a request for the agent may reach. One rule for
 * every path (web_fetch, search providers, the browser, MCP over HTTP): an address that is not
 * globally reachable by the address table (`addressTable.ts`: the IANA special-purpose blocks and
 * the machine's own addresses) is refused unless the user allowed it; the user's deny list always
 * wins. Both lists hold names (`*.example.com` for sub-domains), IP addresses and CIDR blocks.
 * A name on the deny list also denies the addresses it resolves to: the Node layer resolves the
 * deny list's names when it checks a request and passes the answers in `deniedAddresses`.
 * Pure code: the Node layer resolves names and asks `checkHop` (or `checkAddress`) for every
 * address it would connect to, on every redirect.
 */
import { classifyAddress, OWN_ADDRESS } from './addressTable';
import { inBlock, normalizeHost, parseCidr, parseIp, type IpBytes } from './ipAddress';

export { normalizeHost, parseIPv4, parseIPv6 } from './ipAddress';

/** The user's host lists and what the Node layer adds at check time. */
export interface WebHostPolicy {
  /** Names, `*.names`, IP addresses and CIDR blocks that may be reached even when not public. */
  allowHosts: readonly string[];
  /** Names, `*.names`, IP addresses and CIDR blocks that are never reached. Wins over everything. */
  denyHosts: readonly string[];
  /** The addresses the deny list's names resolve to now (filled by the Node layer). */
  deniedAddresses?: readonly string[];
  /** The machine's own interface addresses (filled by the Node layer): refused like loopback. */
  ownAddresses?: readonly string[];
  /** Origins the user configured as an endpoint (a search provider, an MCP server): reachable on any address. */
  trustedOrigins?: readonly string[];
}

/** An empty policy: public hosts only. */
export const PUBLIC_ONLY: WebHostPolicy = { allowHosts: [], denyHosts: [] };

/** A verdict: `ok`, or why the request is refused (a sentence for the model). */
export type HostVerdict = { ok: true } | { ok: false; reason: string };

const OK: HostVerdict = { ok: true };

function nameMatches(host: string, entries: readonly string[]): boolean {
  const h = normalizeHost(host);
  return entries.some((raw) => {
    const entry = normalizeHost(raw);
    if (entry.startsWith('*.')) return h.endsWith(entry.slice(1)) || h === entry.slice(2);
    return h === entry;
  });
}

/** True when the address (or an IPv4 address it carries) lies in one of the entries that are IPs or CIDR blocks. */
function addressMatches(address: string, entries: readonly string[]): boolean {
  const ip = parseIp(address);
  if (!ip) return false;
  const forms: IpBytes[] = [ip];
  // ::ffff:127.0.0.1 and 127.0.0.1 are the same destination for a list entry.
  if (ip.family === 6 && ip.bytes.slice(0, 10).every((b) => b === 0) && (ip.bytes[10] === 0xff || ip.bytes[10] === 0) && ip.bytes[10] === ip.bytes[11]) {
    forms.push({ family: 4, bytes: ip.bytes.slice(12) });
  }
  return entries.some((entry) => {
    const block = parseCidr(entry);
    return block !== undefined && forms.some((f) => inBlock(f, block));
  });
}

/** True when the host name (or literal) is in the allow list. */
export function isAllowedHost(host: string, policy: WebHostPolicy): boolean {
  return nameMatches(host, policy.allowHosts) || (isIpLiteral(host) && addressMatches(host, policy.allowHosts));
}

/** The kind of non-public address this is (`loopback`, `private-use`, …), or `undefined` for a public one. */
export function nonPublicRange(address: string, ownAddresses: readonly string[] = []): string | undefined {
  const verdict = classifyAddress(address, ownAddresses);
  return verdict.global ? undefined : verdict.kind;
}

/** True for an IPv4 or IPv6 literal. */
export function isIpLiteral(host: string): boolean {
  return parseIp(host) !== undefined;
}

function isTrustedOrigin(url: URL, policy: WebHostPolicy): boolean {
  return (policy.trustedOrigins ?? []).some((origin) => origin === url.origin);
}

/** Checks a URL's scheme and host name before anything is resolved (an IP literal is checked as an address too). */
export function checkUrl(url: URL, policy: WebHostPolicy): HostVerdict {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `Only http and https URLs can be fetched, not ${url.protocol}` };
  }
  if (url.username || url.password) return { ok: false, reason: 'URLs with user names or passwords are refused.' };
  const host = normalizeHost(url.hostname);
  if (nameMatches(host, policy.denyHosts)) return denied(host);
  if (isIpLiteral(host)) return checkHop(url, host, policy);
  if (isTrustedOrigin(url, policy) || isAllowedHost(host, policy)) return OK;
  if (host === 'localhost' || host.endsWith('.localhost')) return { ok: false, reason: refusal(host, 'loopback', host) };
  return OK;
}

/**
 * The whole check of one hop: the URL and one address its host resolved to (or its literal).
 * Deny by name or address first; then the user's configured origin, the allow list, and the
 * address table.
 */
export function checkHop(url: URL, address: string, policy: WebHostPolicy): HostVerdict {
  const host = normalizeHost(url.hostname);
  if (nameMatches(host, policy.denyHosts)) return denied(host);
  if (isTrustedOrigin(url, policy)) return deniedAddress(host, address, policy) ?? OK;
  return checkAddress(host, address, policy);
}

/** Checks one address a host resolved to (or an IP literal): deny list by name and address, then non-public addresses need an allow entry. */
export function checkAddress(host: string, address: string, policy: WebHostPolicy): HostVerdict {
  const name = normalizeHost(host);
  if (nameMatches(name, policy.denyHosts)) return denied(name);
  const refused = deniedAddress(name, address, policy);
  if (refused) return refused;
  if (isAllowedHost(name, policy) || addressMatches(address, policy.allowHosts)) return OK;
  const range = nonPublicRange(address, policy.ownAddresses);
  return range ? { ok: false, reason: refusal(name, range, address) } : OK;
}

function deniedAddress(host: string, address: string, policy: WebHostPolicy): HostVerdict | undefined {
  const entries = [...policy.denyHosts, ...(policy.deniedAddresses ?? [])];
  if (!addressMatches(address, entries)) return undefined;
  return { ok: false, reason: `${where(host, address)} is on the deny list (stepwise.web.denyHosts): its address ${normalizeHost(address)} is denied.` };
}

function denied(host: string): HostVerdict {
  return { ok: false, reason: `The host ${host} is on the deny list (stepwise.web.denyHosts).` };
}

function where(host: string, address: string): string {
  return host === normalizeHost(address) ? host : `${host} (${normalizeHost(address)})`;
}

function refusal(host: string, range: string, address: string): string {
  return `Refused: ${where(host, address)} is ${range === OWN_ADDRESS ? '' : 'a '}${range} address. Requests to addresses that are not public (loopback, link-local, private, documentation, this machine's own, …) are blocked unless the host is listed in stepwise.web.allowHosts (CLI: --web-allow-host ${host}).`;
}
