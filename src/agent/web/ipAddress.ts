/**
 * IP literals as bytes: the one parser of addresses and CIDR blocks the egress policy uses. Pure.
 * URL host names are already normalised by the WHATWG URL parser (`http://0x7f.1/` has the host
 * `127.0.0.1`), so IPv4 here is strict dotted decimal: anything else is not an address.
 */

/** An address as network-order bytes: 4 for IPv4, 16 for IPv6. */
export interface IpBytes {
  family: 4 | 6;
  bytes: number[];
}

/** A CIDR block: the address bytes and the prefix length in bits. */
export interface IpBlock extends IpBytes {
  prefix: number;
}

/** Lower-case host without IPv6 brackets, a zone id or a trailing dot. */
export function normalizeHost(host: string): string {
  return host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

/** Parses a dotted-decimal IPv4 address into four bytes (no leading zeros: `010` would be octal elsewhere). */
export function parseIPv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = parts.map((p) => (/^(0|[1-9]\d{0,2})$/.test(p) ? Number(p) : NaN));
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : undefined;
}

/** Parses an IPv6 address into eight 16-bit groups (embedded IPv4 and a `%zone` accepted); `undefined` when it is not one. */
export function parseIPv6(text: string): number[] | undefined {
  let t = normalizeHost(text).replace(/%.*$/, '');
  if (!t.includes(':')) return undefined;
  const v4 = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(t);
  if (v4) {
    const b = parseIPv4(v4[1]!);
    if (!b) return undefined;
    t = t.slice(0, -v4[1]!.length) + `${((b[0]! << 8) | b[1]!).toString(16)}:${((b[2]! << 8) | b[3]!).toString(16)}`;
  }
  const halves = t.split('::');
  if (halves.length > 2) return undefined;
  const group = (s: string) => (s === '' ? [] : s.split(':'));
  const head = group(halves[0]!);
  const tail = halves.length === 2 ? group(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  const groups = all.map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  return groups.length === 8 && groups.every((g) => !Number.isNaN(g)) ? groups : undefined;
}

/** Parses an IPv4 or IPv6 literal (brackets allowed) into bytes; `undefined` when it is neither. */
export function parseIp(text: string): IpBytes | undefined {
  const host = normalizeHost(text);
  const v4 = parseIPv4(host);
  if (v4) return { family: 4, bytes: v4 };
  const v6 = parseIPv6(host);
  return v6 ? { family: 6, bytes: v6.flatMap((g) => [g >> 8, g & 255]) } : undefined;
}

/** Parses `address/prefix` (or a bare address, a block of one); `undefined` when it is not one. */
export function parseCidr(text: string): IpBlock | undefined {
  const [address, prefixText, extra] = normalizeHost(text).split('/');
  if (extra !== undefined) return undefined;
  const ip = parseIp(address ?? '');
  if (!ip) return undefined;
  const bits = ip.bytes.length * 8;
  if (prefixText === undefined) return { ...ip, prefix: bits };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits) return undefined;
  return { ...ip, prefix: Number(prefixText) };
}

/** True when `ip` lies inside `block` (same family, first `prefix` bits equal). */
export function inBlock(ip: IpBytes, block: IpBlock): boolean {
  if (ip.family !== block.family) return false;
  for (let bit = 0; bit < block.prefix; bit += 8) {
    const take = Math.min(8, block.prefix - bit);
    const mask = (0xff << (8 - take)) & 0xff;
    if ((ip.bytes[bit / 8]! & mask) !== (block.bytes[bit / 8]! & mask)) return false;
  }
  return true;
}

/** Dotted-decimal text of four bytes. */
export function formatIPv4(bytes: readonly number[]): string {
  return bytes.join('.');
}

/** True when both are the same address. */
export function sameIp(a: IpBytes, b: IpBytes): boolean {
  return a.family === b.family && a.bytes.every((x, i) => x === b.bytes[i]);
}
