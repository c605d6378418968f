import { strict as assert } from 'node:assert';
import { checkHop, checkUrl, type WebHostPolicy } from '../../../src/agent/web/hostPolicy';

// The egress policy's decisions as tables: URL literal forms (normalised by the WHATWG URL parser
// before the policy sees them), then the allow and deny lists by name, address and CIDR, the
// user's configured origin and the machine's own addresses.

const NONE: WebHostPolicy = { allowHosts: [], denyHosts: [] };

describe('egress policy', () => {
  // Every spelling of a non-public address a URL accepts reaches the policy as the canonical literal.
  const literals: [string, RegExp][] = [
    ['http://0x7f.1/', /127\.0\.0\.1 is a loopback address/],
    ['http://2130706433/', /127\.0\.0\.1 is a loopback address/],
    ['http://017700000001/', /127\.0\.0\.1 is a loopback address/],
    ['http://0177.0.0.1/', /127\.0\.0\.1 is a loopback address/],
    ['http://127.1/', /127\.0\.0\.1 is a loopback address/],
    ['http://127.0.0.1./', /127\.0\.0\.1 is a loopback address/],
    ['http://0/', /0\.0\.0\.0 is a "this host on this network" address/],
    ['http://3232235521/', /192\.168\.0\.1 is a private address/],
    ['http://0xA9FEA9FE/latest/meta-data/', /169\.254\.169\.254 is a link-local \(cloud metadata\) address/],
    ['http://192.0.2.1/', /documentation \(TEST-NET-1\)/],
    ['http://198.51.100.7/', /documentation \(TEST-NET-2\)/],
    ['http://203.0.113.1/', /documentation \(TEST-NET-3\)/],
    ['http://240.0.0.1/', /reserved/],
    ['http://[::ffff:127.0.0.1]/', /IPv4-mapped form of 127\.0\.0\.1 \(loopback\)/],
    ['http://[0:0:0:0:0:ffff:7f00:1]/', /IPv4-mapped form of 127\.0\.0\.1 \(loopback\)/],
    ['http://[::127.0.0.1]/', /IPv4-compatible \(deprecated\) form of 127\.0\.0\.1/],
    ['http://[64:ff9b::7f00:1]/', /NAT64 well-known prefix form of 127\.0\.0\.1/],
    ['http://[64:ff9b:1::a00:1]/', /local-use IPv4\/IPv6 translation/],
    ['http://[2002:7f00:1::]/', /6to4 form of 127\.0\.0\.1/],
    ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', /Teredo form of 127\.0\.0\.1/],
    ['http://[2001:db8::1]/', /documentation/],
    ['http://[100::1]/', /discard-only/],
    ['http://[2001:20::1]/', /ORCHIDv2/],
    ['http://[fec0::1]/', /site-local/],
    ['http://[::]/', /unspecified/],
  ];
  for (const [url, reason] of literals) {
    it(`refuses ${url}`, () => {
      const verdict = checkUrl(new URL(url), NONE);
      assert.ok(!verdict.ok, `${url} was allowed`);
      assert.match(verdict.reason, reason);
    });
  }

  const P = (p: Partial<WebHostPolicy>): WebHostPolicy => ({ ...NONE, ...p });
  // [url, the address its host resolved to, policy, allowed?, reason]
  const hops: [string, string, WebHostPolicy, boolean, RegExp?][] = [
    ['https://example.com/', '93.184.216.34', NONE, true],
    // Deny by address: the literal, a CIDR, the mapped form, another name for it.
    ['https://93.184.216.34/', '93.184.216.34', P({ denyHosts: ['93.184.216.34'] }), false, /deny list/],
    ['https://mirror.example.net/', '93.184.216.34', P({ denyHosts: ['93.184.216.0/24'] }), false, /mirror\.example\.net \(93\.184\.216\.34\) is on the deny list/],
    ['https://mirror.example.net/', '::ffff:93.184.216.34', P({ denyHosts: ['93.184.216.34'] }), false, /deny list/],
    ['https://mirror.example.net/', '93.184.217.1', P({ denyHosts: ['93.184.216.0/24'] }), true],
    // A deny-listed name denies the addresses it resolved to (filled in by the Node layer).
    ['https://alias.example.net/', '93.184.216.34', P({ denyHosts: ['example.com'], deniedAddresses: ['93.184.216.34'] }), false, /deny list/],
    ['https://example.com/', '93.184.216.34', P({ denyHosts: ['example.com'] }), false, /The host example\.com is on the deny list/],
    // The deny list wins over the allow list and over the user's configured origin.
    ['http://127.0.0.1:8080/', '127.0.0.1', P({ allowHosts: ['127.0.0.1'], denyHosts: ['127.0.0.0/8'] }), false, /deny list/],
    ['http://127.0.0.1:8080/', '127.0.0.1', P({ trustedOrigins: ['http://127.0.0.1:8080'], denyHosts: ['127.0.0.1'] }), false, /deny list/],
    // Allow by name, address and CIDR.
    ['http://intranet.corp/', '10.1.2.3', P({ allowHosts: ['intranet.corp'] }), true],
    ['http://wiki.corp/', '10.1.2.3', P({ allowHosts: ['10.0.0.0/8'] }), true],
    ['http://wiki.corp/', '192.168.1.1', P({ allowHosts: ['10.0.0.0/8'] }), false, /wiki\.corp \(192\.168\.1\.1\) is a private address/],
    ['http://[fd00::5]/', 'fd00::5', P({ allowHosts: ['fd00::/8'] }), true],
    ['http://docs.example.com/', '127.0.0.1', NONE, false, /docs\.example\.com \(127\.0\.0\.1\) is a loopback address/],
    // The user's configured endpoint: that origin only (scheme, host and port).
    ['http://127.0.0.1:8888/search?q=x', '127.0.0.1', P({ trustedOrigins: ['http://127.0.0.1:8888'] }), true],
    ['http://127.0.0.1:8889/', '127.0.0.1', P({ trustedOrigins: ['http://127.0.0.1:8888'] }), false, /loopback/],
    ['https://127.0.0.1:8888/', '127.0.0.1', P({ trustedOrigins: ['http://127.0.0.1:8888'] }), false, /loopback/],
    ['http://localhost:8888/', '127.0.0.1', P({ trustedOrigins: ['http://localhost:8888'] }), true],
    // The machine's own addresses, even public ones.
    ['http://me.example/', '8.8.4.4', P({ ownAddresses: ['8.8.4.4'] }), false, /me\.example \(8\.8\.4\.4\) is this machine's own address/],
    ['http://8.8.4.4/', '8.8.4.4', P({ ownAddresses: ['8.8.4.4'], allowHosts: ['8.8.4.4'] }), true],
  ];
  for (const [url, address, policy, ok, reason] of hops) {
    it(`${ok ? 'allows' : 'refuses'} ${url} at ${address} with ${JSON.stringify(policy)}`, () => {
      const verdict = checkHop(new URL(url), address, policy);
      assert.equal(verdict.ok, ok, JSON.stringify(verdict));
      if (!verdict.ok && reason) assert.match(verdict.reason, reason);
    });
  }

  it('checkUrl lets the configured origin through by name (localhost) and nothing else there', () => {
    const policy = P({ trustedOrigins: ['http://localhost:8888'] });
    assert.ok(checkUrl(new URL('http://localhost:8888/x'), policy).ok);
    assert.ok(!checkUrl(new URL('http://localhost:8889/x'), policy).ok);
  });
});
