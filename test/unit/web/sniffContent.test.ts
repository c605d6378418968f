import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { deflateSync, gzipSync } from 'node:zlib';
import { sniffContent } from '../../../src/node/web/sniffContent';

const bytes = (...parts: Array<number[] | string | Buffer>): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
const pad = (head: Buffer, n = 64) => Buffer.concat([head, Buffer.alloc(n, 0x41)]);

// [name, body, declared Content-Type, expected: false for text or a fragment of what it is]
const rows: Array<[string, Buffer, string, false | string]> = [
  ['a real PNG (the extension icon)', readFileSync('media/icon.png'), '', 'PNG'],
  ['a PNG declared text/plain', readFileSync('media/icon.png'), 'text/plain', 'PNG'],
  ['a PNG declared text/html', readFileSync('media/icon.png'), 'text/html; charset=utf-8', 'PNG'],
  ['JPEG', pad(bytes([0xff, 0xd8, 0xff, 0xe0])), '', 'JPEG'],
  ['GIF', pad(bytes('GIF89a')), '', 'GIF'],
  ['WebP', pad(bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 ')), '', 'WebP'],
  ['PDF', pad(bytes('%PDF-1.7\n')), 'text/plain', 'PDF'],
  ['ZIP / docx', pad(bytes([0x50, 0x4b, 0x03, 0x04])), 'application/json', 'ZIP'],
  ['old Office', pad(bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])), '', 'Office'],
  ['gzip', gzipSync('hello hello hello'), '', 'gzip'],
  ['raw deflate noise', deflateSync(Buffer.alloc(4096, 7)), '', 'binary'],
  ['WASM', pad(bytes([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0])), '', 'WebAssembly'],
  ['ELF', pad(bytes([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0])), '', 'ELF'],
  ['Mach-O', pad(bytes([0xcf, 0xfa, 0xed, 0xfe])), '', 'Mach-O'],
  ['PE', pad(bytes('MZ', [0x90, 0, 3, 0])), '', 'Windows'],
  ['WOFF2', pad(bytes('wOF2')), 'text/css', 'WOFF2'],
  ['TrueType', pad(bytes([0, 1, 0, 0, 0, 0x10])), '', 'TrueType'],
  ['MP3 with ID3', pad(bytes('ID3', [4, 0, 0])), '', 'MP3'],
  ['Ogg', pad(bytes('OggS')), '', 'Ogg'],
  ['MP4', pad(bytes([0, 0, 0, 0x20], 'ftypisom')), '', 'MP4'],
  ['WebM', pad(bytes([0x1a, 0x45, 0xdf, 0xa3])), '', 'Matroska'],
  ['SQLite', pad(bytes('SQLite format 3', [0])), '', 'SQLite'],
  ['NUL bytes in "text"', bytes('hello\0world, this is plain text'), 'text/plain', 'NUL'],
  ['control bytes', Buffer.from(Array.from({ length: 400 }, (_, i) => (i % 3 === 0 ? 0x01 : 0x41))), 'text/plain', 'control'],
  ['random high bytes, no charset', Buffer.from(Array.from({ length: 4000 }, (_, i) => 0x80 + ((i * 37) % 0x7f))), '', 'not text'],
  // Text stays text.
  ['plain ASCII', bytes('Hello, world.\nLine two\twith a tab.\r\n'), '', false],
  ['UTF-8 with accents and CJK', Buffer.from('Grüße, 日本語のページ, emoji 🎉\n'.repeat(50)), '', false],
  ['HTML without Content-Type', bytes('<!doctype html><html><head><title>x</title></head><body>hi</body></html>'), '', false],
  ['JSON', bytes('{"a": [1, 2, 3]}'), 'application/json', false],
  ['Shift_JIS declared in the header', Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea].concat(Array(200).fill(0x82).map((b, i) => (i % 2 ? 0xa0 : b)))), 'text/html; charset=shift_jis', false],
  ['windows-1252 text without charset (mostly ASCII)', bytes('Caf', [0xe9], ' cr', [0xe8], 'me br', [0xfb], 'l', [0xe9], 'e, a classic dessert.\n'), '', false],
  ['UTF-16LE with BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello utf16', 'utf16le')]), '', false],
  ['text starting "BM" or "MZ"', bytes('BMW and MZ are letters, not formats.\n'), '', false],
  ['ANSI colours in a log', bytes('\u001b[32mok\u001b[0m passed\n'.repeat(20)), 'text/plain', false],
  ['empty body', Buffer.alloc(0), '', false],
];

describe('sniffContent: the bytes decide', () => {
  for (const [name, body, type, expected] of rows) {
    it(`${name} → ${expected === false ? 'text' : expected}`, () => {
      const sniffed = sniffContent(body, type);
      if (expected === false) assert.deepEqual(sniffed, { binary: false });
      else {
        assert.equal(sniffed.binary, true);
        assert.ok(sniffed.binary && sniffed.what.includes(expected), sniffed.binary ? sniffed.what : '');
      }
    });
  }
});
