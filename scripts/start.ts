// `npm start`: builds the VSIX, installs it into a private code-server (real VS Code 1.139 in the browser) on a sample
// workspace, starts it and prints the URL. The model endpoint comes from the environment:
//   OPENAI_BASE_URL   e.g. http://127.0.0.1:11434/v1 (default: OpenAI)
//   OPENAI_API_KEY    passed to the extension host's environment only: never written to settings.json
//   STEPWISE_MODEL    model name (written to the user settings as stepwise.model)
//   STEPWISE_WORKSPACE  folder to open (default: .vscode-test/start/workspace, a sample project)
//   STEPWISE_PORT     port (default 8080, else a free one)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, installVsix, REPO_ROOT, startCodeServer, VSCODE_CACHE } from '../test/host/codeServer';
import { createSampleWorkspace } from '../test/host/sampleWorkspace';

async function portToUse(): Promise<number> {
  if (process.env.STEPWISE_PORT) return Number(process.env.STEPWISE_PORT);
  const net = await import('node:net');
  const free = await new Promise<boolean>((resolve) => {
    const server = net.createServer().once('error', () => resolve(false));
    server.listen(8080, '127.0.0.1', () => server.close(() => resolve(true)));
  });
  return free ? 8080 : freePort();
}

async function main(): Promise<void> {
  execFileSync('bash', [path.join(REPO_ROOT, 'scripts', 'vscode-host.sh')], { stdio: 'inherit' });
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  const vsix = path.join(VSCODE_CACHE, `${pkg.name}-${pkg.version}.vsix`);
  execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'package.mjs')], { stdio: 'inherit', env: { ...process.env, STEPWISE_VSIX: vsix } });
  const runDir = path.join(VSCODE_CACHE, 'start');
  const workspace = process.env.STEPWISE_WORKSPACE ? path.resolve(process.env.STEPWISE_WORKSPACE) : createSampleWorkspace(path.join(runDir, 'workspace'));
  await installVsix(runDir, vsix);
  const settings: Record<string, unknown> = {};
  if (process.env.STEPWISE_MODEL) settings['stepwise.model'] = process.env.STEPWISE_MODEL;
  const env: Record<string, string> = {};
  for (const name of ['OPENAI_BASE_URL', 'OPENAI_API_KEY'] as const) if (process.env[name]) env[name] = process.env[name]!;
  const server = await startCodeServer({ runDir, settings, env, keepSettings: true, port: await portToUse() });
  const url = server.workbenchUrl(workspace);
  console.log('');
  console.log(`Stepwise is running in VS Code (code-server, pid ${server.pid}):`);
  console.log(`  ${url}`);
  console.log(`  model endpoint: ${process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1 (set OPENAI_BASE_URL to change)'}`);
  console.log(`  API key: ${process.env.OPENAI_API_KEY ? 'from OPENAI_API_KEY (environment only)' : 'not set: use "Stepwise: Set API Key" in the command palette'}`);
  console.log(`  log: ${server.logFile}`);
  console.log('Press Ctrl+C to stop.');
  const stop = (): void => {
    void server.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
