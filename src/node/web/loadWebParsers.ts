import type * as WebParsers from './webParsers';

let parsers: typeof WebParsers | undefined;

/** The page parsers, the charset decoder, loaded on the first fetch (never at activation; see webParsers.ts). */
export function loadWebParsers(): typeof WebParsers {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load is the point
  parsers ??= require('./webParsers') as typeof WebParsers;
  return parsers;
}
