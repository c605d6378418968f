import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentEvent, AgentEventOf } from '../../../src/shared/events';
import { startFakeOpenAI, type FakeOpenAIServer, type RecordedRequest } from '../../support/fakeOpenAIServer';
import { startFakeSearch, type FakeSearchServer } from '../../support/fakeSearchServers';
import { commandLine, descendants, isRunning } from '../../support/processes';
import { startWebSite, type WebSite } from '../../support/webSite';
import { startBrowserSite, type BrowserSite } from '../../support/browserSite';
import { startCli, type CliRun } from '../cli/cliProcess';
import { call, finish, flowScript, offeredTools, requestsOf, requestText, type FlowScript } from './flowFake';

// The web tools end to end through the built CLI: a fake model (OpenAI wire format), a fake search
// engine (Tavily's format) and real local web sites. Everything stays on loopback; the tests allow
// 127.0.0.1 explicitly with --web-allow-host.

const of = <T extends AgentEvent['type']>(r: CliRun, type: T) => r.events.filter((e): e is AgentEventOf<T> => e.type === type);

/** All image_url parts a request carried. */
function imageParts(request: RecordedRequest): string[] {
  const urls: string[] = [];
  for (const message of request.body?.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content as Array<{ type: string; image_url?: { url: string } }>) {
      if (part.type === 'image_url' && part.image_url) urls.push(part.image_url.url);
    }
  }
  return urls;
}

describe('stepwise run (CLI): web research and images', function () {
  this.timeout(90_000);
  let ws: string;
  let fake: FakeOpenAIServer | undefined;
  let search: FakeSearchServer | undefined;
  let site: WebSite;
  let browserSite: BrowserSite;
  const pids: number[] = [];

  before(async () => {
    site = await startWebSite();
    browserSite = await startBrowserSite();
  });
  after(async () => {
    await site.close();
    await browserSite.close();
  });
  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-web-'));
  });
  afterEach(async () => {
    for (const pid of pids.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    await fake?.close();
    await search?.close();
    fake = search = undefined;
    await rm(ws, { recursive: true, force: true });
  });

  async function run(task: string, script: FlowScript, extra: string[], env: Record<string, string> = {}): Promise<CliRun> {
    fake = await startFakeOpenAI(flowScript(script));
    const cli = startCli(['run', task, '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--json', '--web-allow-host', '127.0.0.1', ...extra], {
      STEPWISE_HOME: path.join(ws, '.home'),
      ...env,
    });
    pids.push(cli.child.pid!);
    return cli.done;
  }

  it('plans research on the web: the researcher searches and fetches two pages, the coder writes from them, the report cites both URLs', async () => {
    const docsUrl = `${site.url}/docs/fetch-json`;
    const articleUrl = `${site.url}/article`;
    search = await startFakeSearch('tavily', [
      { title: 'fetchJson() - API reference', url: docsUrl, text: 'fetchJson downloads a URL and parses JSON; timeoutMs option.' },
      { title: 'How widgets keep factories running', url: articleUrl, text: 'Widgets transfer torque between shafts.' },
    ]);
    const notes = '# fetchJson timeouts\n\n- `timeoutMs` defaults to 10000.\n- `retries` defaults to 0.\n\nSources: ' + docsUrl + '\n';
    const r = await run(
      'Find out how fetch-json-lite handles timeouts and write notes/fetch-json.md with what you find.',
      {
        coordinator: [call('route', { mode: 'plan', reason: 'research on the web, then write notes' })],
        planner: [
          call('create_plan', {
            goal: 'Notes on fetch-json-lite timeouts',
            thought: 'Search, read the docs, write notes.',
            steps: [
              { title: 'Research fetchJson', description: 'Search the web for fetch-json-lite timeouts and read the two best pages.', role: 'researcher' },
              { title: 'Write the notes', description: 'Write notes/fetch-json.md from the research.', role: 'coder' },
            ],
          }),
        ],
        'step:Research fetchJson': [
          call('web_search', { query: 'fetch-json-lite timeout option', count: 2 }),
          call('web_fetch', { url: docsUrl }),
          call('web_fetch', { url: articleUrl }),
          finish(`fetchJson has timeoutMs (default 10000) and retries (default 0), per ${docsUrl}; ${articleUrl} is unrelated (widgets).`),
        ],
        'step:Write the notes': [call('write_file', { path: 'notes/fetch-json.md', content: notes }), finish('Wrote notes/fetch-json.md.')],
        updater: () => call('keep_plan', {}),
        report: [
          call('write_report', {
            summary: 'Notes on fetchJson timeouts were written from its API reference.',
            findings: [`timeoutMs defaults to 10000 (${docsUrl}).`],
            verification: '',
            left: [],
          }),
        ],
      },
      ['--plan', '--auto-approve', 'read,edit,web'],
      { TAVILY_API_KEY: 'test-key', STEPWISE_TAVILY_ENDPOINT: search.url },
    );
    assert.equal(r.code, 0, r.stderr);

    // The researcher was offered the web tools (and no writing tools); the coder could write.
    const research = requestsOf(fake!.chatRequests(), 'step:Research fetchJson');
    assert.ok(offeredTools(research[0]!).includes('web_search') && offeredTools(research[0]!).includes('web_fetch'));
    assert.ok(!offeredTools(research[0]!).includes('write_file') && !offeredTools(research[0]!).includes('browser'));
    // The search went to the fake Tavily and its results reached the model.
    assert.equal(search.requests.length, 1);
    assert.equal(JSON.parse(search.requests[0]!.body).query, 'fetch-json-lite timeout option');
    const results = of(r, 'tool_result');
    const searchResult = results.find((e) => e.name === 'web_search')!;
    assert.ok(searchResult.content.includes(docsUrl) && searchResult.content.includes(articleUrl), searchResult.content);
    // Both pages were fetched from the local site and their main text reached the researcher's model.
    const fetches = results.filter((e) => e.name === 'web_fetch');
    assert.equal(fetches.length, 2);
    assert.ok(fetches.every((e) => !e.isError), JSON.stringify(fetches));
    const lastResearch = requestText(research.at(-1)!);
    assert.match(lastResearch, /```ts\nimport \{ fetchJson \} from 'fetch-json-lite';/);
    assert.match(lastResearch, /transfer torque between shafts/);
    assert.match(lastResearch, /UNTRUSTED CONTENT/);
    // The coder's step saw the researcher's summary and wrote the file.
    assert.match(requestText(requestsOf(fake!.chatRequests(), 'step:Write the notes')[0]!), /timeoutMs \(default 10000\)/);
    assert.equal(await readFile(path.join(ws, 'notes/fetch-json.md'), 'utf8'), notes);
    // The report cites both URLs in its Sources section, and the reporter was told them.
    const report = of(r, 'report')[0]!;
    assert.match(report.markdown, new RegExp(`## Sources\\n\\n- <${docsUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}>\\n- <${articleUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}>`));
    assert.equal(await readFile(path.join(ws, report.path!), 'utf8'), report.markdown);
    assert.match(requestText(requestsOf(fake!.chatRequests(), 'report')[0]!), /# Web sources read\n.*\/docs\/fetch-json\n.*\/article/);
  });

  const screenshotScript = (): FlowScript => ({
    direct: [
      call('browser', { action: 'navigate', url: `${browserSite.url}/login` }),
      call('browser', { action: 'screenshot' }),
      { text: 'The sign-in page shows a form with user name and password.' },
    ],
  });

  it('a browser screenshot reaches a vision model as an image_url part (--vision), saved under the task storage', async () => {
    const r = await run('Look at the sign-in page in the browser', screenshotScript(), ['--no-plan', '--auto-approve', 'read,web', '--vision']);
    assert.equal(r.code, 0, r.stderr);
    const requests = fake!.chatRequests();
    assert.equal(requests.length, 3);
    assert.deepEqual(imageParts(requests[1]!), [], 'no image before the screenshot');
    const images = imageParts(requests[2]!);
    assert.equal(images.length, 1);
    assert.match(images[0]!, /^data:image\/png;base64,iVBORw0KGgo/);
    const shot = of(r, 'tool_result').find((e) => e.name === 'browser' && e.images)!;
    assert.match(shot.content, /it is shown to you in the next message/);
    assert.match(shot.images![0]!, /^\.stepwise\/images\/[\w-]+\/[\w-]+-1\.png$/);
    const saved = await readFile(path.join(ws, shot.images![0]!));
    assert.equal(saved.toString('base64'), images[0]!.replace(/^data:image\/png;base64,/, ''));
  });

  it('a model without vision gets a text note with the saved path instead, never the image', async () => {
    const r = await run('Look at the sign-in page in the browser', screenshotScript(), ['--no-plan', '--auto-approve', 'read,web']);
    assert.equal(r.code, 0, r.stderr);
    const requests = fake!.chatRequests();
    assert.deepEqual(requests.flatMap(imageParts), []);
    const text = requestText(requests[2]!);
    assert.match(text, /\[image 1 \(image\/png\) was produced and saved at \.stepwise\/images\/[\w-]+\/[\w-]+-1\.png; this model cannot see images, so it is not shown to you\]/);
    assert.ok(!/shown to you in the next message/.test(text));
    const folder = path.join(ws, '.stepwise/images');
    assert.ok(existsSync(folder));
    const [run1] = await readdir(folder);
    assert.equal((await readdir(path.join(folder, run1!))).length, 1);
  });

  it('a planned browser step runs on the vision tier (--vision-model), which gets the screenshot; the main model never does', async () => {
    const r = await run(
      'Check what the sign-in page of the local site asks for',
      {
        coordinator: [call('route', { mode: 'plan', reason: 'needs the browser' })],
        planner: [
          call('create_plan', {
            goal: 'Describe the sign-in page',
            thought: 'Open it in the browser and look.',
            steps: [{ title: 'Look at the sign-in page', description: 'Open the sign-in page, take a screenshot, say what it asks for.', role: 'browser' }],
          }),
        ],
        'step:Look at the sign-in page': [
          call('browser', { action: 'navigate', url: `${browserSite.url}/login` }),
          call('browser', { action: 'screenshot' }),
          finish('The sign-in page asks for a user name, a password and a region.'),
        ],
        updater: () => call('keep_plan', {}),
        report: [call('write_report', { summary: 'The sign-in page asks for a user name, password and region.', findings: [], verification: '', left: [] })],
      },
      ['--plan', '--auto-approve', 'read,edit,web', '--vision-model', 'eyes'],
    );
    assert.equal(r.code, 0, r.stderr);
    const steps = requestsOf(fake!.chatRequests(), 'step:Look at the sign-in page');
    assert.equal(steps.length, 3);
    assert.ok(steps.every((req) => req.body?.model === 'eyes'), 'the browser role used the vision tier');
    assert.ok(offeredTools(steps[0]!).includes('browser') && !offeredTools(steps[0]!).includes('write_file'));
    assert.equal(imageParts(steps[2]!).length, 1);
    const others = fake!.chatRequests().filter((req) => !steps.includes(req));
    assert.ok(others.every((req) => req.body?.model === 'fake-model'));
    assert.deepEqual(others.flatMap(imageParts), []);
    // The report's sources list the page the browser opened.
    assert.match(of(r, 'report')[0]!.markdown, /## Sources\n\n- <http:\/\/127\.0\.0\.1:\d+\/login>/);
  });

  it('Ctrl-C while the browser waits for a page ends the browser with the CLI: no browser process is left', async () => {
    fake = await startFakeOpenAI(
      flowScript({
        direct: [
          call('browser', { action: 'navigate', url: `${browserSite.url}/login` }),
          call('browser', { action: 'navigate', url: `${browserSite.url}/slow` }),
        ],
      }),
    );
    const arrived = browserSite.waitFor('/slow');
    const cli = startCli(['run', 'Open the slow web page', '--workspace', ws, '--model', 'fake-model', '--base-url', fake.url, '--json', '--no-plan', '--auto-approve', 'read,web', '--web-allow-host', '127.0.0.1'], {
      STEPWISE_HOME: path.join(ws, '.home'),
    });
    pids.push(cli.child.pid!);
    await arrived;
    const browsers = descendants(cli.child.pid!).filter((pid) => /chrom/i.test(commandLine(pid)));
    assert.ok(browsers.length > 0, 'the CLI started a browser');
    pids.push(...browsers);
    cli.child.kill('SIGINT');
    const r = await cli.done;
    assert.equal(r.code, 130, r.stderr);
    const deadline = Date.now() + 10_000;
    while (browsers.some(isRunning) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 100));
    assert.deepEqual(browsers.filter(isRunning), [], 'every browser process ended with the task');
  });
});
