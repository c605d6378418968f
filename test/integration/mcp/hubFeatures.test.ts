import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RESOURCES_TOOL_NAME } from '../../../src/mcp';
import { callTool, directContext, everythingStdio, makeHub, ofType, runScripted, stdioServer, tempDir, unframed } from './mcpKit';

const TOGGLING_SCRIPT = resolve(__dirname, 'fixtures/togglingServer.mjs');
const DOCS = resolve(__dirname, '../../../node_modules/@modelcontextprotocol/server-everything/dist/docs');
const approveAll = () => ({ approved: true as const });

describe('MCP hub: results, resources, approvals and changing tool lists (stdio)', function () {
  this.timeout(60_000);
  let kit: ReturnType<typeof makeHub>;
  let rootA: { path: string; remove: () => Promise<void> };
  let rootB: { path: string; remove: () => Promise<void> };

  before(async () => {
    rootA = await tempDir('stepwise-mcp-a-');
    rootB = await tempDir('stepwise-mcp-b-');
    kit = makeHub({ roots: [rootA.path], maxResultChars: 2000 });
    await kit.hub.configure([
      everythingStdio('everything', { autoApprove: ['echo'] }),
      everythingStdio('slow', { timeoutMs: 1500, autoApprove: true }),
      stdioServer('toggling', [TOGGLING_SCRIPT], { autoApprove: true }),
    ]);
  });

  after(async () => {
    await kit?.hub.dispose();
    await rootA?.remove();
    await rootB?.remove();
  });

  it('asks approval only for tools that are not auto-approved; a declined call is an error result', async () => {
    const { events, approvals } = await runScripted(
      kit.registry,
      [{ toolCalls: [{ name: 'everything__echo', arguments: { message: 'free' } }, { name: 'everything__get-sum', arguments: { a: 1, b: 2 } }] }, { text: 'ok' }],
      { decide: () => ({ approved: false, reason: 'not today' }) },
    );
    assert.deepEqual(approvals.map((a) => a.tool), ['everything__get-sum']);
    assert.equal(approvals[0]?.title, 'Call MCP tool "get-sum" of server "everything"');
    const results = ofType(events, 'tool_result');
    assert.deepEqual(results.map((r) => [r.isError, unframed(r.content)]), [
      [false, 'Echo: free'],
      [true, 'The user declined the call to `everything__get-sum`: not today. Nothing was sent.'],
    ]);
  });

  it('keeps images aside with a short placeholder in the text', async () => {
    const result = await callTool(kit.registry, 'everything__get-tiny-image', {}, directContext({ decide: approveAll }).context);
    assert.equal(result.isError, undefined);
    assert.match(result.content, /\[image image\/png, \d+ bytes: image 1\]/);
    assert.ok(!result.content.includes('iVBOR'), 'base64 data must not reach the model');
    assert.equal(result.images?.length, 1);
    assert.equal(result.images?.[0]?.mimeType, 'image/png');
    assert.ok(Buffer.from(result.images![0]!.data, 'base64').subarray(1, 4).toString() === 'PNG');
  });

  it('an MCP image reaches a vision model as an image part; another model is told it is not shown', async () => {
    const call = [{ toolCalls: [{ name: 'everything__get-tiny-image', arguments: {} }] }, { text: 'seen' }];
    const seeing = await runScripted(kit.registry, call, { decide: approveAll, vision: true });
    const next = seeing.model.requests[1]!.messages;
    const withImage = next.filter((m) => m.role === 'user' && m.images?.length);
    assert.equal(withImage.length, 1);
    const image = withImage[0]!.role === 'user' ? withImage[0]!.images![0]! : undefined;
    assert.equal(image?.mimeType, 'image/png');
    assert.match(next.find((m) => m.role === 'tool')!.content, /\[image 1 \(image\/png\) was produced \(it could not be saved\); it is shown to you in the next message\]/);
    const blind = await runScripted(kit.registry, call, { decide: approveAll });
    const blindNext = blind.model.requests[1]!.messages;
    assert.ok(!blindNext.some((m) => m.role === 'user' && m.images?.length));
    assert.match(blindNext.find((m) => m.role === 'tool')!.content, /this model cannot see images, so it is not shown to you/);
  });

  it('renders embedded resources and resource links as text', async () => {
    const context = directContext({ decide: approveAll }).context;
    const embedded = await callTool(kit.registry, 'everything__get-resource-reference', { resourceType: 'Text', resourceId: 2 }, context);
    assert.match(embedded.content, /\[resource demo:\/\/resource\/dynamic\/text\/2 \(text\/plain\)\]\nResource 2: This is a plaintext resource/);
    const links = await callTool(kit.registry, 'everything__get-resource-links', { count: 2 }, context);
    assert.match(links.content, /\[resource link\] .* <demo:\/\/resource\/dynamic\/(text|blob)\/1>/);
  });

  it('cuts large results, keeping head and tail', async () => {
    const message = `START ${'x'.repeat(10_000)} END`;
    const result = await callTool(kit.registry, 'everything__echo', { message }, directContext().context);
    assert.ok(result.content.length < 2500, `length ${result.content.length}`);
    assert.match(unframed(result.content), /^Echo: START/);
    assert.match(unframed(result.content), /END$/);
    assert.match(result.content, /characters omitted; the MCP tool output was cut/);
  });

  it('lists and reads resources with mcp_resources', async () => {
    assert.equal(kit.registry.get(RESOURCES_TOOL_NAME)?.category, 'read');
    const context = directContext().context;
    const listed = await callTool(kit.registry, RESOURCES_TOOL_NAME, { action: 'list', server: 'everything' }, context);
    assert.match(listed.content, /- \[everything\] demo:\/\/resource\/static\/document\/architecture\.md \(architecture\.md\)/);
    assert.match(listed.content, /template demo:\/\/resource\/dynamic\/text\/\{resourceId\}/);
    const read = await callTool(kit.registry, RESOURCES_TOOL_NAME, { action: 'read', server: 'everything', uri: 'demo://resource/static/document/architecture.md' }, context);
    const expected = await readFile(join(DOCS, 'architecture.md'), 'utf8');
    assert.equal(read.isError, undefined);
    assert.ok(read.content.includes(expected.slice(0, 200)), read.content.slice(0, 300));
    const missing = await callTool(kit.registry, RESOURCES_TOOL_NAME, { action: 'read', server: 'everything', uri: 'demo://nothing/here' }, context);
    assert.equal(missing.isError, true);
    assert.match(missing.content, /The MCP server refused/);
    const noUri = await callTool(kit.registry, RESOURCES_TOOL_NAME, { action: 'read' }, context);
    assert.deepEqual([noUri.isError, noUri.content], [true, '`uri` is required for action "read"; list the resources first.']);
  });

  it('sanitises tool names and shortens long ones with a hash', async () => {
    const names = kit.hub.state('toggling')?.tools ?? [];
    assert.ok(names.includes('toggling__weird_name_with_dots'), names.join(', '));
    const long = names.find((name) => name.startsWith('toggling__xxxx'));
    assert.ok(long && long.length === 64 && /_[0-9a-f]{6}$/.test(long), long);
    const context = directContext().context;
    assert.equal(unframed((await callTool(kit.registry, 'toggling__weird_name_with_dots', {}, context)).content), 'weird ok');
    assert.equal(unframed((await callTool(kit.registry, long, {}, context)).content), 'long ok');
  });

  it('follows tools/list_changed: a tool added during a run is offered on the next turn, then removed', async () => {
    assert.equal(kit.registry.get('toggling__extra'), undefined);
    const { result, events, model } = await runScripted(kit.registry, [
      { toolCalls: [{ name: 'toggling__add-tool' }] },
      async () => {
        // The re-list runs when the notification arrives; wait for it as a real model's latency would.
        await kit.waitFor(() => kit.registry.get('toggling__extra') !== undefined, 'toggling__extra');
        return { toolCalls: [{ name: 'toggling__extra', arguments: { word: 'hi' } }] };
      },
      { text: 'done' },
    ]);
    assert.equal(result.outcome, 'finished');
    assert.deepEqual(ofType(events, 'tool_result').map((r) => unframed(r.content)), ['added', 'extra: hi']);
    assert.ok(!model.requests[0]!.tools.some((t) => t.name === 'toggling__extra'));
    assert.ok(model.requests[2]!.tools.some((t) => t.name === 'toggling__extra'));
    await callTool(kit.registry, 'toggling__remove-tool', {}, directContext().context);
    await kit.waitFor(() => kit.registry.get('toggling__extra') === undefined, 'toggling__extra to leave');
    assert.ok(!kit.hub.state('toggling')?.tools.includes('toggling__extra'));
  });

  it('sends roots/list_changed when the workspace folders change', async () => {
    const context = directContext({ decide: approveAll }).context;
    await kit.hub.setRoots([rootB.path]);
    const uri = pathToFileURL(rootB.path).href;
    // The server re-fetches the roots on the notification; poll its answer.
    let content = '';
    for (let i = 0; i < 100 && !content.includes(uri); i++) {
      content = (await callTool(kit.registry, 'everything__get-roots-list', {}, context)).content;
      if (!content.includes(uri)) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(content.includes(uri), content);
    assert.ok(!content.includes(pathToFileURL(rootA.path).href), content);
  });

  it('times out a call without progress, but not one that keeps reporting progress', async () => {
    const context = directContext().context;
    const silent = await callTool(kit.registry, 'slow__trigger-long-running-operation', { duration: 4, steps: 1 }, context);
    assert.equal(silent.isError, true);
    assert.equal(silent.content, 'MCP tool "trigger-long-running-operation" of server "slow" timed out: no answer or progress for 1.5 s.');
    const chatty = await callTool(kit.registry, 'slow__trigger-long-running-operation', { duration: 3, steps: 12 }, context);
    assert.equal(chatty.isError, undefined);
    assert.match(chatty.content, /Long running operation completed/);
  });
});
