/**
 * The one address table of the egress policy: every block of the IANA IPv4 and IPv6
 * Special-Purpose Address Registries (plus multicast and the unallocated IPv6 space), each with
 * its name and whether a request may go there, and the forms that carry an IPv4 address inside
 * an IPv6 one (mapped, compatible, NAT64, 6to4, Teredo), judged by the address they carry.
 * The machine's own interface addresses are passed in (the Node layer reads them). Pure code.
 */
import { formatIPv4, inBlock, parseCidr, parseIp, sameIp, type IpBlock, type IpBytes } from './ipAddress';

/** How an IPv6 block carries an IPv4 address, if it does. */
type Embedding = 'last32' | '6to4' | 'teredo';

/** One row: the block, its registry name, and whether it is globally reachable (a request may go there). */
export interface AddressBlock {
  cidr: string;
  name: string;
  global: boolean;
  /** The verdict is that of the IPv4 address inside. */
  embeds?: Embedding;
}

const ipv4 = (cidr: string, name: string, global = false): AddressBlock => ({ cidr, name, global });

/** IANA IPv4 Special-Purpose Address Registry (RFC 6890 and updates), plus multicast (RFC 5771). */
export const IPV4_BLOCKS: readonly AddressBlock[] = [
  ipv4('0.0.0.0/8', '"this network"'),
  ipv4('0.0.0.0/32', '"this host on this network"'),
  ipv4('10.0.0.0/8', 'private'),
  ipv4('100.64.0.0/10', 'shared address space (carrier-grade NAT)'),
  ipv4('127.0.0.0/8', 'loopback'),
  ipv4('169.254.0.0/16', 'link-local (cloud metadata)'),
  ipv4('172.16.0.0/12', 'private'),
  ipv4('192.0.0.0/24', 'IETF protocol assignments'),
  ipv4('192.0.0.0/29', 'IPv4 service continuity prefix'),
  ipv4('192.0.0.8/32', 'IPv4 dummy address'),
  ipv4('192.0.0.9/32', 'Port Control Protocol anycast', true),
  ipv4('192.0.0.10/32', 'TURN anycast', true),
  ipv4('192.0.0.170/32', 'NAT64/DNS64 discovery'),
  ipv4('192.0.0.171/32', 'NAT64/DNS64 discovery'),
  ipv4('192.0.2.0/24', 'documentation (TEST-NET-1)'),
  ipv4('192.31.196.0/24', 'AS112-v4', true),
  ipv4('192.52.193.0/24', 'AMT', true),
  // Deprecated (RFC 7526); its former anycast relays may be anything now.
  ipv4('192.88.99.0/24', 'deprecated 6to4 relay anycast'),
  ipv4('192.168.0.0/16', 'private'),
  ipv4('192.175.48.0/24', 'direct delegation AS112 service', true),
  ipv4('198.18.0.0/15', 'benchmarking'),
  ipv4('198.51.100.0/24', 'documentation (TEST-NET-2)'),
  ipv4('203.0.113.0/24', 'documentation (TEST-NET-3)'),
  ipv4('224.0.0.0/4', 'multicast'),
  ipv4('240.0.0.0/4', 'reserved'),
  ipv4('255.255.255.255/32', 'limited broadcast'),
];

const ipv6 = (cidr: string, name: string, global = false, embeds?: Embedding): AddressBlock => ({ cidr, name, global, ...(embeds ? { embeds } : {}) });

/**
 * IANA IPv6 Special-Purpose Address Registry, plus multicast, deprecated site-local and the
 * IPv4-compatible form. Outside these, only global unicast (2000::/3) is reachable: everything
 * else in the IPv6 space is reserved or unassigned (deny by default).
 */
export const IPV6_BLOCKS: readonly AddressBlock[] = [
  ipv6('::/128', 'unspecified'),
  ipv6('::1/128', 'loopback'),
  ipv6('::/96', 'IPv4-compatible (deprecated)', false, 'last32'),
  ipv6('::ffff:0:0/96', 'IPv4-mapped', false, 'last32'),
  ipv6('64:ff9b::/96', 'NAT64 well-known prefix', true, 'last32'),
  // Local-use translation (RFC 8215): the embedding is the operator's choice; allow it by CIDR if needed.
  ipv6('64:ff9b:1::/48', 'local-use IPv4/IPv6 translation'),
  ipv6('100::/64', 'discard-only'),
  ipv6('100:0:0:1::/64', 'dummy IPv6 prefix'),
  ipv6('2001::/23', 'IETF protocol assignments'),
  ipv6('2001::/32', 'Teredo', true, 'teredo'),
  ipv6('2001:1::1/128', 'Port Control Protocol anycast', true),
  ipv6('2001:1::2/128', 'TURN anycast', true),
  ipv6('2001:1::3/128', 'DNS-SD service registration protocol anycast', true),
  ipv6('2001:2::/48', 'benchmarking'),
  ipv6('2001:3::/32', 'AMT', true),
  ipv6('2001:4:112::/48', 'AS112-v6', true),
  ipv6('2001:10::/28', 'deprecated ORCHID'),
  // IANA marks ORCHIDv2 and DETs reachable, but they are identifiers, not locators (RFC 7343, RFC 9374).
  ipv6('2001:20::/28', 'ORCHIDv2 (identifiers, not routable)'),
  ipv6('2001:30::/28', 'drone remote ID entity tags (identifiers, not routable)'),
  ipv6('2001:db8::/32', 'documentation'),
  ipv6('2002::/16', '6to4', true, '6to4'),
  ipv6('2620:4f:8000::/48', 'direct delegation AS112 service', true),
  ipv6('3fff::/20', 'documentation'),
  ipv6('5f00::/16', 'segment routing (SRv6) SIDs'),
  ipv6('fc00::/7', 'unique-local (private)'),
  ipv6('fe80::/10', 'link-local'),
  ipv6('fec0::/10', 'site-local (deprecated)'),
  ipv6('ff00::/8', 'multicast'),
];

/** Global unicast space: the only IPv6 addresses reachable outside the table's reachable rows. */
const GLOBAL_UNICAST = parseCidr('2000::/3')!;

interface ParsedRow {
  row: AddressBlock;
  block: IpBlock;
}
const parsedRows = (rows: readonly AddressBlock[]): ParsedRow[] =>
  rows.map((row) => ({ row, block: parseCidr(row.cidr)! })).sort((a, b) => b.block.prefix - a.block.prefix);
let tables: { v4: ParsedRow[]; v6: ParsedRow[] } | undefined;

/** The most specific row containing the address. */
function rowOf(ip: IpBytes): AddressBlock | undefined {
  tables ??= { v4: parsedRows(IPV4_BLOCKS), v6: parsedRows(IPV6_BLOCKS) };
  return (ip.family === 4 ? tables.v4 : tables.v6).find((r) => inBlock(ip, r.block))?.row;
}

/** The kind of this machine's own (otherwise public) addresses. */
export const OWN_ADDRESS = "this machine's own";

/** A verdict on one address: reachable, or the kind of address that is refused. */
export type AddressClass = { global: true } | { global: false; kind: string };

/** The IPv4 addresses an IPv6 address carries, by the form of its block (Teredo carries two: server, then client). */
export function embeddedIPv4(ip: IpBytes, embeds: Embedding): IpBytes[] {
  const b = ip.bytes;
  const v4 = (bytes: number[]): IpBytes => ({ family: 4, bytes });
  if (embeds === '6to4') return [v4(b.slice(2, 6))];
  // The Teredo client's address is stored inverted (RFC 4380).
  if (embeds === 'teredo') return [v4(b.slice(4, 8)), v4(b.slice(12, 16).map((x) => x ^ 0xff))];
  return [v4(b.slice(12, 16))];
}

/**
 * Classifies an address: the machine's own addresses and every block that is not globally
 * reachable are refused; an IPv6 form that carries IPv4 addresses is refused when any of them is.
 * A text that is not an IP address is refused as such.
 */
export function classifyAddress(address: string | IpBytes, ownAddresses: readonly string[] = []): AddressClass {
  const ip = typeof address === 'string' ? parseIp(address) : address;
  if (!ip) return { global: false, kind: 'not an IP address' };
  const row = rowOf(ip);
  if (row?.embeds) {
    for (const inner of embeddedIPv4(ip, row.embeds)) {
      const verdict = classifyAddress(inner, ownAddresses);
      if (!verdict.global) return { global: false, kind: `${row.name} form of ${formatIPv4(inner.bytes)} (${verdict.kind})` };
    }
    return { global: true };
  }
  if (row && !row.global) return { global: false, kind: row.name };
  if (!row && ip.family === 6 && !inBlock(ip, GLOBAL_UNICAST)) return { global: false, kind: 'reserved IPv6 (outside global unicast 2000::/3)' };
  // A public address of this machine reaches its own services, as loopback would.
  if (ownAddresses.some((own) => { const o = parseIp(own); return o !== undefined && sameIp(o, ip); })) return { global: false, kind: OWN_ADDRESS };
  return { global: true };
}
