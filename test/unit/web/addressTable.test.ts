import { strict as assert } from 'node:assert';
import { classifyAddress, IPV4_BLOCKS, IPV6_BLOCKS } from '../../../src/agent/web/addressTable';
import { parseCidr, parseIp } from '../../../src/agent/web/ipAddress';

// The one address table against hand-written verdicts: the first and last address of every IANA
// special-purpose block (IPv4 and IPv6), the public neighbours just outside each block, the forms
// that carry an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) and the machine's own
// addresses. `P` is a public (reachable) address; anything else is the kind the refusal names.

const P = 'public';
const MAX = 'ffff:ffff:ffff:ffff:ffff';

const IPV4: [string, string][] = [
  ['0.0.0.0', '"this host on this network"'],
  ['0.0.0.1', '"this network"'],
  ['0.255.255.255', '"this network"'],
  ['1.0.0.0', P],
  ['9.255.255.255', P],
  ['10.0.0.0', 'private'],
  ['10.255.255.255', 'private'],
  ['11.0.0.0', P],
  ['100.63.255.255', P],
  ['100.64.0.0', 'shared address space (carrier-grade NAT)'],
  ['100.127.255.255', 'shared address space (carrier-grade NAT)'],
  ['100.128.0.0', P],
  ['126.255.255.255', P],
  ['127.0.0.0', 'loopback'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.255', 'loopback'],
  ['128.0.0.0', P],
  ['169.253.255.255', P],
  ['169.254.0.0', 'link-local (cloud metadata)'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['169.254.255.255', 'link-local (cloud metadata)'],
  ['169.255.0.0', P],
  ['172.15.255.255', P],
  ['172.16.0.0', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.0', P],
  ['191.255.255.255', P],
  ['192.0.0.0', 'IPv4 service continuity prefix'],
  ['192.0.0.7', 'IPv4 service continuity prefix'],
  ['192.0.0.8', 'IPv4 dummy address'],
  ['192.0.0.9', P],
  ['192.0.0.10', P],
  ['192.0.0.11', 'IETF protocol assignments'],
  ['192.0.0.169', 'IETF protocol assignments'],
  ['192.0.0.170', 'NAT64/DNS64 discovery'],
  ['192.0.0.171', 'NAT64/DNS64 discovery'],
  ['192.0.0.172', 'IETF protocol assignments'],
  ['192.0.0.255', 'IETF protocol assignments'],
  ['192.0.1.0', P],
  ['192.0.1.255', P],
  ['192.0.2.0', 'documentation (TEST-NET-1)'],
  ['192.0.2.255', 'documentation (TEST-NET-1)'],
  ['192.0.3.0', P],
  ['192.31.195.255', P],
  ['192.31.196.0', P],
  ['192.31.196.255', P],
  ['192.52.193.0', P],
  ['192.52.193.255', P],
  ['192.88.98.255', P],
  ['192.88.99.0', 'deprecated 6to4 relay anycast'],
  ['192.88.99.255', 'deprecated 6to4 relay anycast'],
  ['192.88.100.0', P],
  ['192.167.255.255', P],
  ['192.168.0.0', 'private'],
  ['192.168.255.255', 'private'],
  ['192.169.0.0', P],
  ['192.175.48.0', P],
  ['192.175.48.255', P],
  ['198.17.255.255', P],
  ['198.18.0.0', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.20.0.0', P],
  ['198.51.99.255', P],
  ['198.51.100.0', 'documentation (TEST-NET-2)'],
  ['198.51.100.255', 'documentation (TEST-NET-2)'],
  ['198.51.101.0', P],
  ['203.0.112.255', P],
  ['203.0.113.0', 'documentation (TEST-NET-3)'],
  ['203.0.113.255', 'documentation (TEST-NET-3)'],
  ['203.0.114.0', P],
  ['223.255.255.255', P],
  ['224.0.0.0', 'multicast'],
  ['239.255.255.255', 'multicast'],
  ['240.0.0.0', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'limited broadcast'],
  ['8.8.8.8', P],
];

const mapped = (v4: string, kind: string) => `IPv4-mapped form of ${v4} (${kind})`;
const IPV6: [string, string][] = [
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  // IPv4-compatible (::/96): judged by the IPv4 address in the last 32 bits.
  ['::2', 'IPv4-compatible (deprecated) form of 0.0.0.2 ("this network")'],
  ['::127.0.0.1', 'IPv4-compatible (deprecated) form of 127.0.0.1 (loopback)'],
  ['::8.8.8.8', P],
  ['::ffff:ffff', 'IPv4-compatible (deprecated) form of 255.255.255.255 (limited broadcast)'],
  ['::1:0:0', 'reserved IPv6 (outside global unicast 2000::/3)'],
  ['::fffe:ffff:ffff', 'reserved IPv6 (outside global unicast 2000::/3)'],
  // IPv4-mapped (::ffff:0:0/96), in every spelling.
  ['::ffff:0.0.0.0', mapped('0.0.0.0', '"this host on this network"')],
  ['::ffff:127.0.0.1', mapped('127.0.0.1', 'loopback')],
  ['::ffff:7f00:1', mapped('127.0.0.1', 'loopback')],
  ['0:0:0:0:0:ffff:7f00:1', mapped('127.0.0.1', 'loopback')],
  ['[::FFFF:127.0.0.1]', mapped('127.0.0.1', 'loopback')],
  ['::ffff:169.254.169.254', mapped('169.254.169.254', 'link-local (cloud metadata)')],
  ['::ffff:198.51.100.7', mapped('198.51.100.7', 'documentation (TEST-NET-2)')],
  ['::ffff:8.8.8.8', P],
  ['::ffff:255.255.255.255', mapped('255.255.255.255', 'limited broadcast')],
  ['::1:ffff:0:0', 'reserved IPv6 (outside global unicast 2000::/3)'],
  // NAT64: the well-known prefix carries the IPv4 address; the local-use prefix is not global.
  ['64:ff9b::', 'NAT64 well-known prefix form of 0.0.0.0 ("this host on this network")'],
  ['64:ff9b::127.0.0.1', 'NAT64 well-known prefix form of 127.0.0.1 (loopback)'],
  ['64:ff9b::a00:1', 'NAT64 well-known prefix form of 10.0.0.1 (private)'],
  ['64:ff9b::203.0.113.9', 'NAT64 well-known prefix form of 203.0.113.9 (documentation (TEST-NET-3))'],
  ['64:ff9b::8.8.8.8', P],
  ['64:ff9b::ffff:ffff', 'NAT64 well-known prefix form of 255.255.255.255 (limited broadcast)'],
  ['64:ff9b::1:0:0', 'reserved IPv6 (outside global unicast 2000::/3)'],
  ['64:ff9b:1::', 'local-use IPv4/IPv6 translation'],
  ['64:ff9b:1::808:808', 'local-use IPv4/IPv6 translation'],
  [`64:ff9b:1:${MAX}`, 'local-use IPv4/IPv6 translation'],
  ['64:ff9b:2::', 'reserved IPv6 (outside global unicast 2000::/3)'],
  ['100::', 'discard-only'],
  ['100::ffff:ffff:ffff:ffff', 'discard-only'],
  ['100:0:0:1::', 'dummy IPv6 prefix'],
  ['100:0:0:1:ffff:ffff:ffff:ffff', 'dummy IPv6 prefix'],
  ['100:0:0:2::', 'reserved IPv6 (outside global unicast 2000::/3)'],
  ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved IPv6 (outside global unicast 2000::/3)'],
  ['2000::', P],
  // Teredo (2001::/32): server IPv4 in bits 32-63, the client's inverted in the last 32 bits (RFC 4380 example: client 192.0.2.45).
  ['2001:0000:4136:e378:8000:63bf:3fff:fdd2', 'Teredo form of 192.0.2.45 (documentation (TEST-NET-1))'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'Teredo form of 127.0.0.1 (loopback)'],
  ['2001:0:a00:1:8000:63bf:f7f7:f7f7', 'Teredo form of 10.0.0.1 (private)'],
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', P],
  ['2001::', 'Teredo form of 0.0.0.0 ("this host on this network")'],
  ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'Teredo form of 255.255.255.255 (limited broadcast)'],
  ['2001:1::', 'IETF protocol assignments'],
  ['2001:1::1', P],
  ['2001:1::2', P],
  ['2001:1::3', P],
  ['2001:1::4', 'IETF protocol assignments'],
  ['2001:2::', 'benchmarking'],
  [`2001:2:0:${MAX}`, 'benchmarking'],
  ['2001:2:1::', 'IETF protocol assignments'],
  ['2001:3::', P],
  [`2001:3:${MAX}:ffff`, P],
  ['2001:4:112::', P],
  [`2001:4:112:${MAX}`, P],
  ['2001:4:113::', 'IETF protocol assignments'],
  ['2001:10::', 'deprecated ORCHID'],
  [`2001:1f:${MAX}:ffff`, 'deprecated ORCHID'],
  ['2001:20::', 'ORCHIDv2 (identifiers, not routable)'],
  [`2001:2f:${MAX}:ffff`, 'ORCHIDv2 (identifiers, not routable)'],
  ['2001:30::', 'drone remote ID entity tags (identifiers, not routable)'],
  [`2001:3f:${MAX}:ffff`, 'drone remote ID entity tags (identifiers, not routable)'],
  ['2001:40::', 'IETF protocol assignments'],
  [`2001:1ff:${MAX}:ffff`, 'IETF protocol assignments'],
  ['2001:200::', P],
  [`2001:db7:${MAX}:ffff`, P],
  ['2001:db8::', 'documentation'],
  [`2001:db8:${MAX}:ffff`, 'documentation'],
  ['2001:db9::', P],
  // 6to4 (2002::/16): the IPv4 address in bits 16-47.
  ['2002::', '6to4 form of 0.0.0.0 ("this host on this network")'],
  ['2002:7f00:1::', '6to4 form of 127.0.0.1 (loopback)'],
  ['2002:a9fe:a9fe::1', '6to4 form of 169.254.169.254 (link-local (cloud metadata))'],
  ['2002:808:808::1', P],
  [`2002:ffff:ffff:${MAX}`, '6to4 form of 255.255.255.255 (limited broadcast)'],
  [`2001:ffff:ffff:${MAX}`, P],
  ['2003::', P],
  ['2606:4700::1111', P],
  ['2620:4f:8000::', P],
  ['2620:4f:8000:ffff:ffff:ffff:ffff:ffff', P],
  [`3ffe:ffff:ffff:${MAX}`, P],
  ['3fff::', 'documentation'],
  ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
  ['3fff:1000::', P],
  [`3fff:ffff:ffff:${MAX}`, P],
  ['4000::', 'reserved IPv6 (outside global unicast 2000::/3)'],
  ['5f00::', 'segment routing (SRv6) SIDs'],
  [`5f00:ffff:ffff:${MAX}`, 'segment routing (SRv6) SIDs'],
  [`fbff:ffff:ffff:${MAX}`, 'reserved IPv6 (outside global unicast 2000::/3)'],
  ['fc00::', 'unique-local (private)'],
  ['fd00::1', 'unique-local (private)'],
  [`fdff:ffff:ffff:${MAX}`, 'unique-local (private)'],
  [`fe7f:ffff:ffff:${MAX}`, 'reserved IPv6 (outside global unicast 2000::/3)'],
  ['fe80::', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  [`febf:ffff:ffff:${MAX}`, 'link-local'],
  ['fec0::', 'site-local (deprecated)'],
  [`feff:ffff:ffff:${MAX}`, 'site-local (deprecated)'],
  ['ff00::', 'multicast'],
  ['ff02::1', 'multicast'],
  [`ffff:ffff:ffff:${MAX}`, 'multicast'],
];

const NOT_ADDRESSES = ['not-an-ip', '127.1', '0x7f.0.0.1', '010.0.0.1', '256.0.0.1', '1.2.3.4.5', '1::2::3', '12345::', '::ffff:1.2.3', ''];

const kindOf = (address: string, own: string[] = []) => {
  const verdict = classifyAddress(address, own);
  return verdict.global ? P : verdict.kind;
};

describe('address table (IANA special-purpose registries, embedded IPv4, own addresses)', () => {
  for (const [address, expected] of [...IPV4, ...IPV6]) {
    it(`${address} → ${expected}`, () => assert.equal(kindOf(address), expected));
  }

  for (const text of NOT_ADDRESSES) {
    it(`"${text}" is not an address (refused as such)`, () => assert.equal(kindOf(text), 'not an IP address'));
  }

  it('every block of the table has its first and last address in the hand-written verdicts', () => {
    const listed = [...IPV4, ...IPV6].map(([a]) => parseIp(a));
    for (const row of [...IPV4_BLOCKS, ...IPV6_BLOCKS]) {
      const block = parseCidr(row.cidr)!;
      const bits = block.bytes.length * 8;
      const edge = (fill: 0 | 1) =>
        block.bytes.map((byte, i) => {
          let out = byte;
          for (let b = 0; b < 8; b++) if (i * 8 + b >= block.prefix) out = fill ? out | (0x80 >> b) : out & ~(0x80 >> b);
          return out;
        });
      for (const bytes of [edge(0), edge(1)]) {
        const seen = listed.some((ip) => ip && ip.family === block.family && ip.bytes.every((x, i) => x === bytes[i]));
        assert.ok(seen, `${row.cidr} (${row.name}): ${bytes.join(',')} (of ${bits} bits) is not in the verdict table`);
      }
    }
  });

  it('the machine\'s own addresses are refused, in every form that carries them', () => {
    const own = ['8.8.4.4', '2606:4700:4700::64', 'fe80::1c2d:3eff:fe4f:5a6b'];
    assert.equal(kindOf('8.8.4.4', own), "this machine's own");
    assert.equal(kindOf('8.8.4.5', own), P);
    assert.equal(kindOf('::ffff:8.8.4.4', own), "IPv4-mapped form of 8.8.4.4 (this machine's own)");
    assert.equal(kindOf('64:ff9b::808:404', own), "NAT64 well-known prefix form of 8.8.4.4 (this machine's own)");
    assert.equal(kindOf('2002:808:404::1', own), "6to4 form of 8.8.4.4 (this machine's own)");
    assert.equal(kindOf('2606:4700:4700:0:0:0:0:64', own), "this machine's own");
    assert.equal(kindOf('2606:4700:4700::65', own), P);
    // A non-public own address keeps the name of its block.
    assert.equal(kindOf('fe80::1c2d:3eff:fe4f:5a6b', own), 'link-local');
  });
});
