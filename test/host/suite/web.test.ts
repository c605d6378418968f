import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import type { StepwiseApi } from '../../../src/extension';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeTurn } from '../../support/fakeOpenAIServer';
import { startWebSite, type WebSite } from '../../support/webSite';
import { activateStepwise, filesContaining, runDir } from './hostTestSupport';

const call = (name: string, args: unknown): FakeTurn => ({ toolCalls: [{ name, arguments: JSON.stringify(args) }] });
const finish = (summary: string): FakeTurn => call('finish', { summary });

async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('stepwise').update(key, value, vscode.ConfigurationTarget.Global);
}

describe('web tools in the real editor', function () {
  this.timeout(120_000);
  let api: StepwiseApi;
  let fake: FakeOpenAIServer | undefined;
  let site: WebSite;

  before(async () => {
    api = await activateStepwise();
    site = await startWebSite();
    await setSetting('plan.mode', 'never');
    await setSetting('approvals.autoApprove', ['read', 'web']);
  });
  after(async () => {
    await setSetting('web.allowHosts', undefined);
    await setSetting('approvals.autoApprove', undefined);
    await site.close();
  });
  afterEach(async () => {
    api.controller.stop();
    await api.controller.whenIdle();
    await fake?.close();
    fake = undefined;
    await vscode.commands.executeCommand('stepwise.clearApiKey');
  });

  async function runWith(turns: FakeTurn[]): Promise<FakeOpenAIServer> {
    fake = await startFakeOpenAI(turns);
    await vscode.workspace.getConfiguration('stepwise').update('baseUrl', fake.url, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('stepwise.setApiKey', 'sk-host-web-0000000000000000');
    const runId = await api.controller.start('Read the article on the local web site', { planMode: 'never' });
    assert.ok(runId);
    await api.controller.whenIdle();
    return fake;
  }
  const toolText = (server: FakeOpenAIServer) =>
    (server.chatRequests().at(-1)?.body?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content ?? '')).join('\n');

  it('fetches a loopback page only when stepwise.web.allowHosts lists it', async () => {
    await setSetting('web.allowHosts', []);
    const refused = await runWith([call('web_fetch', { url: `${site.url}/article` }), finish('refused')]);
    assert.match(toolText(refused), /127\.0\.0\.1 is a loopback address.*stepwise\.web\.allowHosts/);
    await fake!.close();
    await setSetting('web.allowHosts', ['127.0.0.1']);
    const allowed = await runWith([call('web_fetch', { url: `${site.url}/article` }), finish('read')]);
    assert.match(toolText(allowed), /transfer torque between shafts/);
    assert.ok(!toolText(allowed).includes('ADVERTISEMENT'));
  });

  it('offers web_search once a search key is set, keeping the key out of settings', async () => {
    const offered = (server: FakeOpenAIServer) => (server.chatRequests()[0]?.body?.tools ?? []).map((t) => t.function.name);
    await vscode.commands.executeCommand('stepwise.setWebSearchKey', 'tavily', '');
    const without = await runWith([finish('nothing')]);
    assert.ok(offered(without).includes('web_fetch') && offered(without).includes('browser'));
    assert.ok(!offered(without).includes('web_search'), 'no provider: no web_search');
    await fake!.close();
    const key = `tvly-host-secret-${Date.now().toString(36)}`;
    assert.equal(await vscode.commands.executeCommand('stepwise.setWebSearchKey', 'tavily', key), true);
    try {
      const withKey = await runWith([finish('nothing')]);
      assert.ok(offered(withKey).includes('web_search'));
      assert.deepEqual(filesContaining(path.join(runDir(), 'user-data', 'User', 'settings.json'), key), []);
    } finally {
      await vscode.commands.executeCommand('stepwise.setWebSearchKey', 'tavily', '');
    }
  });
});
