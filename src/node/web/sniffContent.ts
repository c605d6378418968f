/**
 * What bytes are, decided from the bytes themselves: a server's Content-Type (or its absence) is a
 * claim, and binary must never reach the model as text (a PNG decoded as UTF-8 is thousands of
 * characters of noise, or worse, text an attacker arranged). Magic numbers first, then the shape of
 * the first bytes: NUL bytes, a high share of control bytes, or invalid UTF-8 with no charset named.
 */
export type Sniffed = { binary: false } | { binary: true; what: string };

/** Bytes looked at: magic numbers sit in the first few, and 8 KB tells text from binary reliably. */
const SAMPLE_BYTES = 8192;
/** Share of control bytes (not tab, newline, form feed, carriage return, escape) above which bytes are binary. */
const MAX_CONTROL_SHARE = 0.1;
/** Share of bytes >= 0x80 in invalid UTF-8 with no declared charset above which bytes are binary (legacy text is mostly ASCII). */
const MAX_HIGH_SHARE = 0.3;

/** A signature: bytes at an offset (`null` matches any byte). */
interface Magic {
  what: string;
  at?: number;
  bytes: ReadonlyArray<number | null>;
  /** Short signatures that text could start with also need a NUL byte in the first 64 bytes. */
  nul?: true;
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** The table of signatures: images, documents, archives, executables, fonts, audio and video. */
const MAGIC: readonly Magic[] = [
  { what: 'a PNG image', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { what: 'a JPEG image', bytes: [0xff, 0xd8, 0xff] },
  { what: 'a GIF image', bytes: [...ascii('GIF8'), null, 0x61] },
  { what: 'a WebP image', bytes: [...ascii('RIFF'), null, null, null, null, ...ascii('WEBP')] },
  { what: 'a WAV audio file', bytes: [...ascii('RIFF'), null, null, null, null, ...ascii('WAVE')] },
  { what: 'an AVI video', bytes: [...ascii('RIFF'), null, null, null, null, ...ascii('AVI ')] },
  { what: 'a BMP image', bytes: [...ascii('BM'), null, null, null, null, 0, 0, 0, 0] },
  { what: 'an icon', bytes: [0, 0, 1, 0] },
  { what: 'a TIFF image', bytes: [...ascii('II'), 0x2a, 0] },
  { what: 'a TIFF image', bytes: [...ascii('MM'), 0, 0x2a] },
  { what: 'a Photoshop image', bytes: ascii('8BPS') },
  { what: 'a PDF document', bytes: ascii('%PDF-') },
  { what: 'a ZIP archive (or an Office document)', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { what: 'a ZIP archive', bytes: [0x50, 0x4b, 0x05, 0x06] },
  { what: 'a ZIP archive', bytes: [0x50, 0x4b, 0x07, 0x08] },
  { what: 'an old Office document', bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] },
  { what: 'gzip-compressed data', bytes: [0x1f, 0x8b] },
  { what: 'bzip2-compressed data', bytes: [...ascii('BZh'), null, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59] },
  { what: 'xz-compressed data', bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { what: 'zstd-compressed data', bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  { what: 'a 7-Zip archive', bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { what: 'a RAR archive', bytes: [...ascii('Rar!'), 0x1a, 0x07] },
  { what: 'a SQLite database', bytes: [...ascii('SQLite format 3'), 0] },
  { what: 'a WebAssembly module', bytes: [0x00, 0x61, 0x73, 0x6d] },
  { what: 'an ELF executable', bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { what: 'a Mach-O executable', bytes: [0xfe, 0xed, 0xfa, 0xce] },
  { what: 'a Mach-O executable', bytes: [0xfe, 0xed, 0xfa, 0xcf] },
  { what: 'a Mach-O executable', bytes: [0xce, 0xfa, 0xed, 0xfe] },
  { what: 'a Mach-O executable', bytes: [0xcf, 0xfa, 0xed, 0xfe] },
  { what: 'a Mach-O universal binary (or a Java class)', bytes: [0xca, 0xfe, 0xba, 0xbe] },
  { what: 'a Windows executable', bytes: ascii('MZ'), nul: true },
  { what: 'a WOFF font', bytes: ascii('wOFF') },
  { what: 'a WOFF2 font', bytes: ascii('wOF2') },
  { what: 'an OpenType font', bytes: ascii('OTTO') },
  { what: 'a TrueType font', bytes: [0x00, 0x01, 0x00, 0x00] },
  { what: 'a font collection', bytes: ascii('ttcf') },
  { what: 'an MP3 audio file', bytes: ascii('ID3'), nul: true },
  { what: 'an MP3 audio file', bytes: [0xff, 0xfb] },
  { what: 'an MP3 audio file', bytes: [0xff, 0xf3] },
  { what: 'an MP3 audio file', bytes: [0xff, 0xf2] },
  { what: 'an Ogg media file', bytes: ascii('OggS') },
  { what: 'a FLAC audio file', bytes: ascii('fLaC') },
  { what: 'a MIDI file', bytes: ascii('MThd') },
  { what: 'an MP4/QuickTime media file (or HEIF/AVIF image)', at: 4, bytes: ascii('ftyp') },
  { what: 'a Matroska/WebM video', bytes: [0x1a, 0x45, 0xdf, 0xa3] },
];

function matches(bytes: Uint8Array, magic: Magic): boolean {
  const at = magic.at ?? 0;
  if (bytes.length < at + magic.bytes.length) return false;
  if (!magic.bytes.every((b, i) => b === null || bytes[at + i] === b)) return false;
  return !magic.nul || bytes.subarray(0, 64).includes(0);
}

/** True when `contentType`, a BOM or an HTML/XML prolog names a charset other than UTF-8 (legacy text is not UTF-8). */
function declaresCharset(head: Uint8Array, contentType: string): boolean {
  if (/charset\s*=/i.test(contentType)) return true;
  const start = Buffer.from(head.subarray(0, 1024)).toString('latin1');
  return /<meta[^>]+charset|<\?xml[^>]+encoding/i.test(start);
}

function utf16Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/** Valid UTF-8 except perhaps a sequence cut at the sample's end. */
function validUtf8(sample: Uint8Array, whole: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: !whole });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `body` is binary, and what it is: by magic number, else by its first 8 KB (NUL bytes
 * outside UTF-16, more than 10% control bytes, or invalid UTF-8 with no charset declared and many
 * high bytes). `contentType` only tells whether a charset was named; it never makes bytes text.
 */
export function sniffContent(body: Uint8Array, contentType = ''): Sniffed {
  if (body.length === 0) return { binary: false };
  for (const magic of MAGIC) if (matches(body, magic)) return { binary: true, what: magic.what };
  const sample = body.subarray(0, SAMPLE_BYTES);
  const utf16 = utf16Bom(sample) || /charset\s*=\s*["']?utf-?16/i.test(contentType);
  let control = 0;
  let high = 0;
  for (const byte of sample) {
    if (byte === 0 && !utf16) return { binary: true, what: 'binary data (NUL bytes)' };
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d && byte !== 0x1b && !utf16) control++;
    else if (byte === 0x7f) control++;
    else if (byte >= 0x80) high++;
  }
  if (control / sample.length > MAX_CONTROL_SHARE) return { binary: true, what: 'binary data (control bytes)' };
  if (!utf16 && !validUtf8(sample, sample.length === body.length) && !declaresCharset(sample, contentType) && high / sample.length > MAX_HIGH_SHARE) {
    return { binary: true, what: 'binary data (not text in any declared charset)' };
  }
  return { binary: false };
}
