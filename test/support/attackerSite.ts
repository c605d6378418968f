import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A loopback victim holding a secret, and an attacker site whose pages try every way a browser
 * has to reach it. The victim listens on 127.0.0.1 (never allow-listed in these tests); the
 * attacker on 127.0.0.2, another loopback address that the tests allow-list by itself, so the
 * attacker is reachable and the victim is not, with no DNS involved.
 */
export interface AttackerSite {
  /** `http://127.0.0.2:PORT` */
  url: string;
  /** `http://127.0.0.1:PORT` */
  victimUrl: string;
  victimPort: number;
  /** The secret the victim serves (random per site). */
  secret: string;
  /** Every request (and WebSocket upgrade) that reached the victim, by path. */
  victimHits: string[];
  close(): Promise<void>;
}

/** Attacker pages: what each tries. `/scripts` writes one `<li>` per attempt and "all attempts done" at the end. */
export const ATTACKS = {
  chain: '/chain',
  chainByName: '/chain-name',
  frames: '/frames',
  scripts: '/scripts',
  metaRefresh: '/meta',
  scriptMove: '/move',
  stream: '/stream',
  spin: '/spin',
  /** `?port=N`: WebRTC gathers candidates with a STUN server at udp://127.0.0.1:N. */
  webrtc: '/webrtc',
} as const;

const html = (title: string, head: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

/** The page that tries fetch, XHR, a WebSocket and workers, each towards the victim directly and through a redirect. */
function scriptsPage(victim: string, victimPort: number): string {
  const script = `
const out = document.getElementById('out');
const note = (name, value) => { const li = document.createElement('li'); li.textContent = name + ': ' + String(value).slice(0, 300); out.appendChild(li); };
const attempt = (name, run) => Promise.race([run(), new Promise((r) => setTimeout(() => r('no answer'), 4000))]).then((v) => note(name, v), (e) => note(name, 'failed ' + e));
const viaXhr = (url) => new Promise((resolve, reject) => { const x = new XMLHttpRequest(); x.open('GET', url); x.onload = () => resolve(x.responseText); x.onerror = () => reject('xhr error'); x.send(); });
const viaSocket = () => new Promise((resolve, reject) => { const s = new WebSocket('ws://127.0.0.1:${victimPort}/socket'); s.onmessage = (m) => resolve(m.data); s.onerror = () => reject('socket error'); });
const viaWorker = () => new Promise((resolve, reject) => { const w = new Worker('/worker.js'); w.onmessage = (m) => resolve(m.data); w.onerror = () => reject('worker error'); });
const viaShared = () => new Promise((resolve, reject) => { const w = new SharedWorker('/shared.js'); w.port.onmessage = (m) => resolve(m.data); w.onerror = () => reject('shared worker error'); });
const viaService = () => navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then((reg) => new Promise((resolve) => { navigator.serviceWorker.onmessage = (m) => resolve(m.data); reg.active.postMessage('go'); }));
Promise.all([
  attempt('fetch through a redirect', () => fetch('/bounce').then((r) => r.text())),
  attempt('fetch direct', () => fetch('${victim}/secret').then((r) => r.text())),
  attempt('xhr through a redirect', () => viaXhr('/bounce')),
  attempt('xhr direct', () => viaXhr('${victim}/secret')),
  attempt('websocket', viaSocket),
  attempt('dedicated worker', viaWorker),
  attempt('shared worker', viaShared),
  attempt('service worker', viaService),
]).then(() => note('status', 'all attempts done'));`;
  return html('Helpful page', '', `<h1>Helpful page</h1><ul id="out"></ul><script>${script}</script>`);
}

/** What a worker (dedicated, shared, service) runs: fetches the victim through a redirect and directly, and posts what it read. */
const workerScript = (victim: string, kind: 'dedicated' | 'shared' | 'service') => `
const read = () => Promise.all([fetch('/bounce').then((r) => r.text()), fetch('${victim}/secret').then((r) => r.text())]).then((t) => t.join(' '), (e) => 'failed ' + e);
${kind === 'shared' ? 'onconnect = (e) => { const port = e.ports[0]; read().then((t) => port.postMessage(t)); };' : ''}
${kind === 'dedicated' ? 'read().then((t) => postMessage(t));' : ''}
${kind === 'service' ? 'onmessage = (e) => read().then((t) => e.source.postMessage(t));' : ''}`;

/** Answers a WebSocket handshake and sends the secret as one text frame. */
function answerSocket(req: http.IncomingMessage, socket: Socket, secret: string): void {
  const accept = createHash('sha1').update(`${String(req.headers['sec-websocket-key'])}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  const payload = Buffer.from(secret);
  socket.write(Buffer.concat([Buffer.from([0x81, payload.length]), payload]));
}

async function listen(server: http.Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

function closer(server: http.Server): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

/** Starts the victim (127.0.0.1) and the attacker site (127.0.0.2). */
export async function startAttackerSite(): Promise<AttackerSite> {
  const secret = `VICTIM-SECRET-${randomBytes(12).toString('hex')}`;
  const victimHits: string[] = [];
  const victim = http.createServer((req, res) => {
    victimHits.push(req.url ?? '');
    // Readable by any page, so a request that got through would put the secret in the page.
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'access-control-allow-origin': '*' });
    res.end(html('Victim', '', `<p>${secret}</p>`));
  });
  victim.on('upgrade', (req: http.IncomingMessage, socket: Socket) => {
    victimHits.push(`upgrade ${req.url ?? ''}`);
    answerSocket(req, socket, secret);
  });
  const closeVictim = closer(victim);
  const victimPort = await listen(victim, '127.0.0.1');
  const victimUrl = `http://127.0.0.1:${victimPort}`;
  const attacker = http.createServer((req, res) => attackerRoute(req, res, victimUrl, victimPort));
  const closeAttacker = closer(attacker);
  const port = await listen(attacker, '127.0.0.2');
  return {
    url: `http://127.0.0.2:${port}`,
    victimUrl,
    victimPort,
    secret,
    victimHits,
    close: async () => {
      await closeAttacker();
      await closeVictim();
    },
  };
}

function attackerRoute(req: http.IncomingMessage, res: http.ServerResponse, victim: string, victimPort: number): void {
  const send = (body: string, type = 'text/html; charset=utf-8') => {
    res.writeHead(200, { 'content-type': type });
    res.end(body);
  };
  const redirect = (location: string) => {
    res.writeHead(302, { location });
    res.end();
  };
  switch (new URL(req.url ?? '/', 'http://x').pathname) {
    case ATTACKS.chain:
      return redirect('/chain/2');
    case '/chain/2':
      return redirect(`${victim}/secret`);
    case ATTACKS.chainByName:
      return redirect(`http://localhost:${victimPort}/secret`);
    case '/bounce':
      return redirect(`${victim}/secret`);
    case ATTACKS.frames:
      return send(html('Framed page', '', `<h1>Framed page</h1><iframe title="bounced" src="/bounce"></iframe><iframe title="direct" src="${victim}/secret"></iframe>`));
    case ATTACKS.scripts:
      return send(scriptsPage(victim, victimPort));
    case '/worker.js':
      return send(workerScript(victim, 'dedicated'), 'text/javascript');
    case '/shared.js':
      return send(workerScript(victim, 'shared'), 'text/javascript');
    case '/sw.js':
      return send(workerScript(victim, 'service'), 'text/javascript');
    case ATTACKS.metaRefresh:
      return send(html('Waiting page', `<meta http-equiv="refresh" content="1; url=${victim}/secret">`, '<h1>Please wait</h1>'));
    case ATTACKS.scriptMove:
      return send(html('Moving page', '', `<h1>Moving</h1><script>setTimeout(() => { location.href = '${victim}/secret'; }, 800);</script>`));
    case ATTACKS.stream:
      return streamForever(res);
    case ATTACKS.webrtc:
      return send(webrtcPage(Number(new URL(req.url ?? '/', 'http://x').searchParams.get('port'))));
    case ATTACKS.spin:
      return send(html('Busy page', '', '<h1>Busy</h1><script>setTimeout(() => { for (;;) {} }, 50);</script>'));
    default:
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
  }
}

/** Asks WebRTC for ICE candidates through a STUN server on loopback UDP, then says "gathering done". */
function webrtcPage(stunPort: number): string {
  const script = `
const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${stunPort}' }] });
pc.createDataChannel('x');
const done = () => { document.getElementById('out').textContent = 'gathering done'; };
pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === 'complete') done(); };
setTimeout(done, 5000);
pc.createOffer().then((o) => pc.setLocalDescription(o));`;
  return html('Call page', '', `<h1>Call page</h1><p id="out">gathering</p><script>${script}</script>`);
}

/** A page that never ends: 1 MB chunks of text for as long as the client reads. */
function streamForever(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.write('<!doctype html><title>Endless</title><pre>');
  const chunk = 'x'.repeat(1024 * 1024);
  const more = () => {
    while (!res.destroyed && res.write(chunk));
  };
  res.on('drain', more);
  more();
}
