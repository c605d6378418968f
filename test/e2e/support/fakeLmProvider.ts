// The test side of test/e2e/fixtures/fake-lm-provider: packs that extension as a VSIX (so code-server installs it
// like any other) and serves its script on loopback. The extension registers VS Code language models through the
// stable `vscode.lm.registerLanguageModelChatProvider` API and, for each request VS Code hands it, POSTs what it got
// (messages with their part kinds, tools, tool mode) to `/chat` and streams back the test's answer as NDJSON lines
// (`{"text"}`, `{"toolCall"}`, `{"hold":true}` = keep the stream open until the request is cancelled).
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from '../../host/codeServer';

/** The fixture extension's folder. */
export const FAKE_LM_EXTENSION = path.join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'fake-lm-provider');

/** One message part as the provider received it (the class it was an instance of, as `type`). */
export type RecordedPart =
  | { type: 'text'; value: string }
  | { type: 'toolCall'; callId: string; name: string; input: unknown }
  | { type: 'toolResult'; callId: string; content: unknown[] }
  | { type: 'other'; json: string };

/** One chat request as VS Code passed it to the provider. */
export interface LmRequest {
  requestId: number;
  model: string;
  messages: Array<{ role: string; name?: string; content: RecordedPart[] }>;
  tools: Array<{ name: string; description: string; inputSchema?: unknown }>;
  /** vscode.LanguageModelChatToolMode: 1 = Auto, 2 = Required. */
  toolMode?: number;
  modelOptions: Record<string, unknown>;
}

/** One streamed line of an answer. */
/** `error`: the provider throws a `vscode.LanguageModelError` with that message. */
export type LmEvent = { text: string } | { toolCall: { callId: string; name: string; input: object } } | { hold: true } | { error: string };

/** A running script server. */
export interface FakeLmScript {
  url: string;
  /** Every request, in order. */
  requests: LmRequest[];
  /** Request ids whose cancellation token fired (the provider reported it). */
  cancelled: number[];
  /** Sets how the next requests are answered (the last answerer stays). */
  answer(answerer: (request: LmRequest) => LmEvent[]): void;
  close(): Promise<void>;
}

/** Packs the fixture extension into `<dir>/fake-lm-provider.vsix` with the system `zip` (a VSIX is a zip of `extension/`). */
export async function packFakeLmVsix(dir: string): Promise<string> {
  const stage = path.join(dir, 'fake-lm-vsix');
  mkdirSync(stage, { recursive: true });
  cpSync(FAKE_LM_EXTENSION, path.join(stage, 'extension'), { recursive: true });
  const vsix = path.join(dir, 'fake-lm-provider.vsix');
  const child = spawn('zip', ['-q', '-r', '-X', vsix, 'extension'], { cwd: stage, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`zip failed (${code}): ${stderr}`);
  return vsix;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of req) body += String(chunk);
  return JSON.parse(body);
}

/** Starts the script server on 127.0.0.1 (port 0). Text events are streamed with a short pause between lines. */
export async function startFakeLmScript(): Promise<FakeLmScript> {
  let answerer: (request: LmRequest) => LmEvent[] = () => [{ text: 'No answer was scripted.' }];
  const requests: LmRequest[] = [];
  const cancelled: number[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readJson(req);
      if (req.url === '/cancelled') {
        cancelled.push((body as { requestId: number }).requestId);
        res.end('{}');
        return;
      }
      const request = body as LmRequest;
      requests.push(request);
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const event of answerer(request)) {
        if ('hold' in event) {
          await new Promise<void>((resolve) => res.once('close', resolve));
          return;
        }
        res.write(`${JSON.stringify(event)}\n`);
        await sleep(30);
      }
      res.end();
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    cancelled,
    answer(next) {
      answerer = next;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
