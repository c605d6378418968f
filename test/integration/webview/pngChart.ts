// A real PNG file, made here so the tests need no binary fixture: a small bar chart like one a
// step's script would draw (white background, axes, bars).
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Encodes RGB pixels (`width * height * 3` bytes, rows top to bottom) as a PNG. */
export function encodePng(width: number, height: number, rgb: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) rgb.copy(rows, y * (width * 3 + 1) + 1, y * width * 3, (y + 1) * width * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A `width` x `height` bar chart of `values` (0..1) as a PNG. */
export function barChartPng(values: number[], width = 360, height = 180): Buffer {
  const rgb = Buffer.alloc(width * height * 3, 0xff);
  const set = (x: number, y: number, [r, g, b]: [number, number, number]) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const i = (y * width + x) * 3;
    rgb[i] = r;
    rgb[i + 1] = g;
    rgb[i + 2] = b;
  };
  const left = 24;
  const bottom = height - 20;
  const top = 12;
  for (let y = top; y <= bottom; y++) set(left, y, [60, 60, 60]);
  for (let x = left; x < width - 10; x++) set(x, bottom, [60, 60, 60]);
  for (let level = 1; level <= 4; level++) {
    const y = bottom - Math.round(((bottom - top) * level) / 4);
    for (let x = left + 1; x < width - 10; x += 2) set(x, y, [215, 215, 215]);
  }
  const slot = (width - 10 - left) / values.length;
  values.forEach((value, i) => {
    const x0 = Math.round(left + i * slot + slot * 0.2);
    const x1 = Math.round(left + (i + 1) * slot - slot * 0.2);
    const y0 = bottom - Math.round((bottom - top) * Math.max(0, Math.min(1, value)));
    const colour: [number, number, number] = i === values.length - 1 ? [230, 120, 30] : [31, 119, 180];
    for (let x = x0; x < x1; x++) for (let y = y0; y < bottom; y++) set(x, y, colour);
  });
  return encodePng(width, height, rgb);
}
