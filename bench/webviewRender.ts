// Renders a 10,000-event task into the real plan panel bundle in Chromium (fake acquireVsCodeApi)
// and measures first paint, per-event append cost and how many DOM nodes the windowed view keeps.
import type { HostMessage } from '../src/shared/webviewProtocol';
import { domNodeCount, launchChromium, openView, sendHost, WebviewServer } from '../test/integration/webview/harness';
import { longRun, wrap } from '../test/integration/webview/scenario';

const EVENTS = 10_000;
/** The first batch, as the host's first 16 ms batch of a fast stream would carry. */
const FIRST_BATCH = 100;

/** Result of one benchmark run; times in milliseconds. */
export interface WebviewRenderResult {
  /** Navigation start -> first frame painted with the first batch (100 events) rendered: load, parse, render. */
  firstPaintMs: number;
  /** Mean time for one event: parse + reduce + DOM patch + layout, each event as its own message. */
  meanAppendMs: number;
  p95AppendMs: number;
  /** DOM nodes in the page after all events (windowed: bounded, not proportional to events). */
  domNodes: number;
  events: typeof EVENTS;
  /** A reloaded panel replaying all events (10 messages of 1,000) until painted. */
  replayMs: number;
  /** With all events in: a click that opens or closes a tool card, until the next frame is painted (median of 20). */
  clickToPaintMs: number;
}

type Bench = { stepwise: { receive(m: unknown): void; flush(): void } };

/** Runs the benchmark once; needs the built bundle (`node scripts/build.mjs`) and /usr/bin/chromium. */
export async function benchWebviewRender(): Promise<WebviewRenderResult> {
  const server = await WebviewServer.start();
  const browser = await launchChromium();
  try {
    const runId = 'bench';
    const envelopes = wrap(runId, longRun(EVENTS));
    // The host answers `ready` at once with status, reset and the first batch, like TaskViews does.
    const answer: HostMessage[] = [
      { type: 'status', status: { configured: true, trusted: true, running: true, runId, history: [] } },
      { type: 'reset', runId, task: 'bench' },
      { type: 'events', runId, envelopes: envelopes.slice(0, FIRST_BATCH) },
    ];
    const { page } = await openView(browser, server, { view: 'panel', width: 1100, height: 800 }, (p) => p.addInitScript((messages) => {
      const w = window as unknown as { __onReady?: () => void; __firstPaint?: number };
      w.__onReady = () => {
        for (const message of messages) window.postMessage(message, '*');
        setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => (w.__firstPaint = performance.now()))), 0);
      };
    }, answer));
    // performance.now() counts from navigation start: this is load + parse + first render + paint.
    const firstPaintMs = await page.evaluate(() => new Promise<number>((done) => {
      const poll = setInterval(() => {
        const at = (window as unknown as { __firstPaint?: number }).__firstPaint;
        if (at === undefined) return;
        clearInterval(poll);
        done(at);
      }, 5);
    }));
    await page.waitForSelector('.vl-row');

    const samples = await page.evaluate(({ rest, id }) => {
      const app = (window as unknown as Bench).stepwise;
      const times: number[] = [];
      for (const envelope of rest) {
        const t0 = performance.now();
        app.receive({ type: 'events', runId: id, envelopes: [envelope] });
        app.flush();
        void document.body.offsetHeight;
        times.push(performance.now() - t0);
      }
      return times;
    }, { rest: envelopes.slice(FIRST_BATCH), id: runId });
    const domNodes = await domNodeCount(page);
    // Responsiveness once the task is long: the user opens and closes a card.
    const clicks = await page.evaluate(async () => {
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const summary = document.querySelector<HTMLElement>('.vl-row details > summary');
        if (!summary) break;
        const t0 = performance.now();
        summary.click();
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        times.push(performance.now() - t0);
      }
      return times;
    });
    if (clicks.length === 0) throw new Error('no tool card to click in the rendered panel');
    await page.close();

    const { page: reloaded } = await openView(browser, server, { view: 'panel', width: 1100, height: 800 });
    await sendHost(reloaded, { type: 'reset', runId, task: 'bench' });
    const replayMs = await reloaded.evaluate(({ all, id }) => new Promise<number>((done) => {
      // No named inner functions here: the test runner's transpiler would wrap them in a helper the page lacks.
      const t0 = performance.now();
      for (let i = 0; i < all.length; i += 1000) window.postMessage({ type: 'events', runId: id, envelopes: all.slice(i, i + 1000) }, '*');
      const poll = setInterval(() => {
        const app = (window as unknown as { stepwise: { current: { run: { lastSeq: number } } } }).stepwise;
        if (app.current.run.lastSeq !== all.length - 1) return;
        clearInterval(poll);
        requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0)));
      }, 2);
    }), { all: envelopes, id: runId });
    await reloaded.close();

    const sorted = [...samples].sort((a, b) => a - b);
    const round = (n: number) => Math.round(n * 1000) / 1000;
    return {
      firstPaintMs: round(firstPaintMs),
      meanAppendMs: round(samples.reduce((a, b) => a + b, 0) / samples.length),
      p95AppendMs: round(sorted[Math.floor(sorted.length * 0.95)] ?? 0),
      domNodes,
      events: EVENTS,
      replayMs: round(replayMs),
      clickToPaintMs: round([...clicks].sort((a, b) => a - b)[Math.floor(clicks.length / 2)]!),
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

if (require.main === module) {
  benchWebviewRender().then((result) => console.log(JSON.stringify(result, null, 2)), (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
