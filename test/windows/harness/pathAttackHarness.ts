import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';

// Run by Node.js for Windows (bundled by esbuild, see pathAttacks.test.ts): argv = workspace,
// outside folder, then a JSON list of paths. Prints one JSON object: per path whether a write and a
// read were refused, and the message; and whether the case-variant spelling of the workspace works.
async function main(): Promise<void> {
  const [ws, out, list] = process.argv.slice(2) as [string, string, string];
  mkdirSync(`${ws}\\sub`, { recursive: true });
  // `jn` is a link to `out`, made by the Linux side: Wine 8 cannot create a junction on its Z: drive
  // (ENOTSUP), and shows the Unix symlink to Windows programs as a link that resolves outside.
  void out;
  const workspace = new NodeWorkspace(ws);
  const results: Record<string, { write: string | null; read: string | null }> = {};
  for (const input of JSON.parse(list) as string[]) {
    const attempt = async (act: () => Promise<unknown>) => act().then(() => null, (e: unknown) => (e instanceof Error ? e.message : String(e)));
    results[input] = { write: await attempt(() => workspace.writeFile(input, 'attack\r\n')), read: await attempt(() => workspace.readFile(input)) };
  }
  // The read-only attribute (Node's chmod 0o444 on Windows sets it): a write must be refused, the bytes kept.
  writeFileSync(`${ws}\\ro.txt`, 'keep\r\n');
  chmodSync(`${ws}\\ro.txt`, 0o444);
  const readOnly = await workspace.writeFile('ro.txt', 'changed').then(() => 'written', (e: unknown) => (e instanceof Error ? e.message : String(e)));
  chmodSync(`${ws}\\ro.txt`, 0o644);
  const upper = `${ws.toUpperCase()}\\case.txt`;
  const caseWrite = await workspace.writeFile(upper, 'x').then(() => 'ok', (e: unknown) => String(e));
  process.stdout.write(JSON.stringify({ platform: process.platform, root: workspace.root, results, caseWrite, readOnly }));
}
void main();
