import type * as ServerSdks from './serverSdks';

let sdks: typeof ServerSdks | undefined;

/**
 * The MCP server and ACP SDKs, loaded when a server shell starts (never by `stepwise run`): the
 * bundle keeps them in `dist/server-sdks.js` (scripts/build.mjs), so the CLI's other commands do
 * not pay for parsing them.
 */
export function loadServerSdks(): typeof ServerSdks {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load is the point
  sdks ??= require('./serverSdks') as typeof ServerSdks;
  return sdks;
}
