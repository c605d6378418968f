import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ApprovalCategory, type EventEnvelope } from '../../shared/events';
import { PlanMode } from '../../shared/vocabulary';
import { UsageError } from '../cliArgs';
import { guardRequest } from './httpGuard';
import { ServeTask } from './serveTask';
import type { ServerStart } from './serverTask';

/** `POST /tasks`: the task, and optionally the plan mode and fewer auto-approved categories. Tasks run in the server's folder. */
export const StartTaskBody = z.object({ task: z.string().min(1), plan: PlanMode.optional(), autoApprove: z.array(ApprovalCategory).optional() });
/** `POST /tasks/:id/approvals/:callId`. */
export const ApprovalBody = z.object({ approved: z.boolean(), reason: z.string().optional() });
/** `POST /tasks/:id/answers/:callId`. */
export const AnswerBody = z.object({ answer: z.string() });

const MAX_BODY = 1_000_000;

/** Takes `--port N` out of `serve`'s arguments (0, the default, picks a free port). Throws `UsageError`. */
export function takePortFlag(args: string[]): { args: string[]; port: number } {
  const rest: string[] = [];
  let port = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg !== '--port' && !arg.startsWith('--port=')) {
      rest.push(arg);
      continue;
    }
    const raw = arg.includes('=') ? arg.slice('--port='.length) : args[++i];
    port = Number(raw);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port needs a port number, got "${raw ?? ''}"`);
  }
  return { args: rest, port };
}

/** A JSON answer. */
function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** The request's JSON body checked by `schema`, or `undefined` after answering 400/413. */
async function readBody<T>(req: IncomingMessage, res: ServerResponse, schema: z.ZodType<T>): Promise<T | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) {
      send(res, 413, { error: 'Body too large' });
      req.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    send(res, 400, { error: 'The body is not JSON' });
    return undefined;
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) send(res, 400, { error: parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ') });
  return parsed.success ? parsed.data : undefined;
}

/**
 * Streams a task's envelopes as Server-Sent Events (`id` = the envelope's seq), then `event: end`
 * with how it ended. A reconnecting client's `Last-Event-ID` skips what it already has.
 */
function streamEvents(task: ServeTask, req: IncomingMessage, res: ServerResponse): void {
  const lastSeen = Number(req.headers['last-event-id'] ?? -1);
  const after = Number.isInteger(lastSeen) ? lastSeen : -1;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
  res.write(': stepwise\n\n');
  const unsubscribe = task.follow((envelope: EventEnvelope | undefined) => {
    if (envelope) {
      if (envelope.seq <= after) return;
      res.write(`id: ${envelope.seq}\ndata: ${JSON.stringify(envelope)}\n\n`);
      return;
    }
    res.end(`event: end\ndata: ${JSON.stringify(task.status())}\n\n`);
  });
  req.on('close', unsubscribe);
}

/** The routes behind the guard. */
class ServeRoutes {
  readonly tasks = new Map<string, ServeTask>();
  constructor(private readonly start: ServerStart) {}

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const parts = url.pathname.split('/').filter(Boolean);
    const method = req.method ?? 'GET';
    if (parts[0] !== 'tasks') return send(res, 404, { error: 'Not found' });
    if (parts.length === 1) return method === 'POST' ? this.startTask(req, res) : method === 'GET' ? send(res, 200, [...this.tasks.values()].map((t) => t.status())) : send(res, 405, { error: 'Method not allowed' });
    const task = this.tasks.get(parts[1]!);
    if (!task) return send(res, 404, { error: 'No such task' });
    const route = `${method} ${parts.slice(2, 3).join('/')}`;
    if (route === 'GET ' && parts.length === 2) return send(res, 200, task.status());
    if (route === 'GET events' && parts.length === 3) return streamEvents(task, req, res);
    if (route === 'POST stop' && parts.length === 3) {
      task.stop();
      return send(res, 202, { stopping: true });
    }
    if (route === 'POST approvals' && parts.length === 4) return this.answer(req, res, () => readBody(req, res, ApprovalBody), (b) => task.answerApproval(parts[3]!, b.approved ? { approved: true } : { approved: false, ...(b.reason ? { reason: b.reason } : {}) }));
    if (route === 'POST answers' && parts.length === 4) return this.answer(req, res, () => readBody(req, res, AnswerBody), (b) => task.answerQuestion(parts[3]!, b.answer));
    return send(res, 404, { error: 'Not found' });
  }

  private async startTask(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req, res, StartTaskBody);
    if (!body) return;
    // One task at a time: they would share the folder, its checkpoints and its commands.
    if ([...this.tasks.values()].some((t) => !t.result)) return send(res, 409, { error: 'A task is running; stop it or wait for its end' });
    const task = new ServeTask(this.start, { task: body.task, planMode: body.plan, autoApprove: body.autoApprove });
    this.tasks.set(task.id, task);
    send(res, 201, { id: task.id, events: `/tasks/${task.id}/events` });
  }

  private async answer<T>(_req: IncomingMessage, res: ServerResponse, read: () => Promise<T | undefined>, give: (body: T) => boolean): Promise<void> {
    const body = await read();
    if (body === undefined) return;
    if (!give(body)) return send(res, 404, { error: 'Nothing waits for an answer under this id' });
    send(res, 200, { answered: true });
  }

  stopAll(): Promise<unknown> {
    for (const task of this.tasks.values()) task.stop();
    return Promise.all([...this.tasks.values()].map((t) => t.done));
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/**
 * `stepwise serve`: HTTP on 127.0.0.1 with a random token, printed once on stdout as one JSON line
 * (`{"url","token"}`). Every request passes `guardRequest` (Host, Origin, token) before any route.
 * Runs until the process is told to stop (Ctrl-C / SIGTERM); running tasks are stopped then.
 */
export async function serveHttp(start: ServerStart, io: { port: number; stdout: (text: string) => void; signal: AbortSignal }): Promise<number> {
  const token = randomBytes(32).toString('base64url');
  const routes = new ServeRoutes(start);
  let port = 0;
  const server = createServer((req, res) => {
    const verdict = guardRequest({ host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization }, port, token);
    if (!verdict.ok) {
      res.setHeader('www-authenticate', 'Bearer');
      return send(res, verdict.status, { error: verdict.message });
    }
    routes.handle(req, res).catch((error: unknown) => {
      start.stderr(`stepwise serve: ${error instanceof Error ? error.message : String(error)}\n`);
      if (!res.headersSent) send(res, 500, { error: 'Internal error' });
      else res.end();
    });
  });
  try {
    port = await listen(server, io.port);
  } catch (error) {
    start.stderr(`stepwise: cannot listen on 127.0.0.1:${io.port}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  io.stdout(JSON.stringify({ url: `http://127.0.0.1:${port}`, token }) + '\n');
  start.stderr(`stepwise serve: listening on http://127.0.0.1:${port} (send Authorization: Bearer <token>)\n`);
  await new Promise<void>((resolve) => (io.signal.aborted ? resolve() : io.signal.addEventListener('abort', () => resolve(), { once: true })));
  await routes.stopAll();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return 0;
}
