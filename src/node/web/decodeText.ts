import iconv from 'iconv-lite';
import { isHtmlType } from './isHtmlType';

/**
 * Bytes of a web response to text: the charset from the Content-Type header, else a byte-order
 * mark, else an HTML `<meta charset>` (or `http-equiv`) in the first bytes, else UTF-8. Decoding
 * uses iconv-lite (pure JS): Node's own TextDecoder decodes windows-1252 as ISO-8859-1 (0x80 is
 * not €), and not every host's Node has full ICU. An unknown label falls back to UTF-8.
 */
export function decodeText(body: Buffer, contentType: string): string {
  const label = charsetOf(contentType) ?? bomCharset(body) ?? (isHtmlType(contentType) || !contentType ? metaCharset(body) : undefined) ?? 'utf-8';
  // As browsers do (WHATWG Encoding), latin1 / ISO-8859-1 labels mean windows-1252.
  const name = /^(iso-?8859-1|latin-?1|us-ascii|ascii)$/i.test(label) ? 'windows-1252' : label;
  return iconv.decode(body, iconv.encodingExists(name) ? name : 'utf-8');
}

export { isHtmlType };

function charsetOf(contentType: string): string | undefined {
  const match = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType);
  return match?.[1];
}

function bomCharset(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return undefined;
}

function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 4096).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
}
