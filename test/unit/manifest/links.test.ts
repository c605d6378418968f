import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';

// The marketplace page and the VSIX link to what the manifest names: a placeholder host would send
// people nowhere. Every URL in package.json must be a real https address (or the field left out).
const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as Record<string, unknown>;

/** Every string value of `value` that looks like a URL, with where it sits. */
function urlsIn(value: unknown, where: string): Array<[string, string]> {
  if (typeof value === 'string') return /^[a-z][\w+.-]*:\/\//i.test(value) ? [[where, value]] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => urlsIn(v, `${where}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => urlsIn(v, where ? `${where}.${k}` : k));
  return [];
}

// Reserved names (RFC 2606 / 6761) never resolve to a real site.
const PLACEHOLDER = /(^|\.)(invalid|example|test|localhost)$|(^|\.)example\.(com|org|net)$/i;

describe('package.json links', () => {
  const meta = ['repository', 'homepage', 'bugs', 'qna', 'sponsor'].flatMap((key) => urlsIn(manifest[key], key));

  it('names no placeholder host in repository, homepage, bugs or qna', () => {
    for (const [where, url] of meta) {
      const host = new URL(url).hostname;
      assert.ok(!PLACEHOLDER.test(host), `${where} is a placeholder (${url}): use the real address or leave the field out`);
      assert.equal(new URL(url).protocol, 'https:', `${where} must be https (${url})`);
    }
  });

  it('the placeholder rule itself recognises reserved names', () => {
    for (const host of ['example.invalid', 'stepwise.example.com', 'x.test', 'localhost']) assert.ok(PLACEHOLDER.test(host), host);
    for (const host of ['github.com', 'marketplace.visualstudio.com', 'examples.dev']) assert.ok(!PLACEHOLDER.test(host), host);
  });
});
