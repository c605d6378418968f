import { strict as assert } from 'node:assert';
import { checkAddress, checkUrl, nonPublicRange, parseIPv6, type WebHostPolicy } from '../../../src/agent/web/hostPolicy';

const NONE: WebHostPolicy = { allowHosts: [], denyHosts: [] };

describe('web host policy', () => {
  const ranges: [string, string | undefined][] = [
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', undefined],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'shared address space (carrier-grade NAT)'],
    ['0.0.0.0', '"this host on this network"'],
    ['224.0.0.1', 'multicast'],
    ['8.8.8.8', undefined],
    ['93.184.216.34', undefined],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'IPv4-mapped form of 127.0.0.1 (loopback)'],
    ['::ffff:7f00:1', 'IPv4-mapped form of 127.0.0.1 (loopback)'],
    ['::ffff:169.254.169.254', 'IPv4-mapped form of 169.254.169.254 (link-local (cloud metadata))'],
    ['fd00::1', 'unique-local (private)'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2606:4700::1111', undefined],
    ['not-an-ip', 'not an IP address'],
  ];
  for (const [address, expected] of ranges) {
    it(`classifies ${address} as ${expected ?? 'public'}`, () => assert.equal(nonPublicRange(address), expected));
  }

  it('parses IPv6 forms', () => {
    assert.deepEqual(parseIPv6('::1'), [0, 0, 0, 0, 0, 0, 0, 1]);
    assert.deepEqual(parseIPv6('[2001:db8::8a2e:370:7334]'), [0x2001, 0xdb8, 0, 0, 0, 0x8a2e, 0x370, 0x7334]);
    assert.equal(parseIPv6('1::2::3'), undefined);
    assert.equal(parseIPv6('12345::'), undefined);
  });

  const urls: [string, WebHostPolicy, boolean, RegExp?][] = [
    ['http://127.0.0.1:8080/', NONE, false, /127\.0\.0\.1 is a loopback address.*--web-allow-host 127\.0\.0\.1/],
    ['http://169.254.169.254/latest/meta-data/', NONE, false, /link-local/],
    ['http://[::1]/', NONE, false, /loopback/],
    ['http://localhost:3000/', NONE, false, /loopback/],
    ['http://app.localhost/', NONE, false, /loopback/],
    ['http://127.0.0.1:8080/', { allowHosts: ['127.0.0.1'], denyHosts: [] }, true],
    ['http://[::1]/', { allowHosts: ['::1'], denyHosts: [] }, true],
    ['http://localhost/', { allowHosts: ['localhost'], denyHosts: [] }, true],
    ['https://example.com/', NONE, true],
    ['https://ads.example.com/', { allowHosts: [], denyHosts: ['*.example.com'] }, false, /deny list/],
    ['https://example.com/', { allowHosts: [], denyHosts: ['*.example.com'] }, false, /deny list/],
    ['https://example.org/', { allowHosts: [], denyHosts: ['*.example.com'] }, true],
    ['file:///etc/passwd', NONE, false, /Only http and https/],
    ['ftp://example.com/', NONE, false, /Only http and https/],
    ['http://user:pw@example.com/', NONE, false, /user names or passwords/],
  ];
  for (const [url, policy, ok, message] of urls) {
    it(`${ok ? 'allows' : 'refuses'} ${url}${policy.allowHosts.length ? ` (allow ${policy.allowHosts})` : ''}${policy.denyHosts.length ? ` (deny ${policy.denyHosts})` : ''}`, () => {
      const verdict = checkUrl(new URL(url), policy);
      assert.equal(verdict.ok, ok, JSON.stringify(verdict));
      if (!verdict.ok && message) assert.match(verdict.reason, message);
    });
  }

  it('checks resolved addresses: a public name pointing at loopback is refused unless the name is allowed', () => {
    const refused = checkAddress('docs.example.com', '127.0.0.1', NONE);
    assert.ok(!refused.ok && /docs\.example\.com \(127\.0\.0\.1\) is a loopback address/.test(refused.reason));
    assert.ok(checkAddress('docs.example.com', '93.184.216.34', NONE).ok);
    assert.ok(checkAddress('docs.example.com', '127.0.0.1', { allowHosts: ['docs.example.com'], denyHosts: [] }).ok);
    // The allow list holds addresses too: allowing 127.0.0.1 allows it under any name (the literal was reachable anyway).
    assert.ok(checkAddress('docs.example.com', '127.0.0.1', { allowHosts: ['127.0.0.1'], denyHosts: [] }).ok);
    assert.ok(!checkAddress('docs.example.com', '127.0.0.2', { allowHosts: ['127.0.0.1'], denyHosts: [] }).ok);
  });
});
