import assert from 'node:assert/strict';
import { HostMessage, parseHostMessage, parseIntent, WebviewIntent } from '../../../src/shared/webviewProtocol';
import { envelopes, plannedRun } from './envelopes';

describe('webview protocol', () => {
  it('accepts every intent in its documented shape', () => {
    const valid: unknown[] = [
      { type: 'ready', view: 'sidebar', lastSeq: -1 },
      { type: 'ready', view: 'panel', lastSeq: 41, runId: 'r1' },
      { type: 'submitTask', text: 'Fix the bug', planMode: 'auto' },
      { type: 'submitTask', text: 'What is this?', planMode: 'auto', images: [{ name: 'a.png', mimeType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUg==' }] },
      { type: 'mentionUris', uris: ['file:///ws/src/a.ts'] },
      { type: 'cancel' },
      { type: 'sendMessage', text: 'also the changelog' },
      { type: 'approve', callId: 'c1' },
      { type: 'approve', callId: 'c1', always: true },
      { type: 'reject', callId: 'c1', reason: 'too risky' },
      { type: 'answer', callId: 'q1', answer: 'B' },
      { type: 'openFile', path: 'src/a.ts', line: 3 },
      { type: 'setApiKey' },
      { type: 'openSettings' },
      { type: 'openSetup' },
      { type: 'setWebSearchKey' },
      { type: 'showLog' },
      { type: 'suggestMentions', query: 'src/da' },
      { type: 'showPanel' },
      { type: 'revealReview', callId: 'c1' },
      { type: 'openRun', runId: 'r1' },
      { type: 'resumeRun', runId: 'r1', text: 'and the docs too' },
      { type: 'retryStep', stepId: 's2' },
      { type: 'runPlan', steps: [{ id: 's1', title: 'Read', description: '', role: 'researcher' }, { title: 'New step', description: 'added', role: 'coder' }] },
      { type: 'undoTaskEdits', runId: 'r1' },
      { type: 'showChanges', runId: 'r1', checkpointId: 'c3' },
      { type: 'restoreCheckpoint', runId: 'r1', checkpointId: 'c3' },
      { type: 'newTask' },
      { type: 'mcpRestart', name: 'everything' },
      { type: 'mcpSetEnabled', name: 'memory', enabled: false },
      { type: 'compactContext' },
      { type: 'undoCompaction', id: 'compaction-1' },
      { type: 'pinContext', callId: 'c1', pinned: true },
      { type: 'setupListModels', requestId: 1, draft: { presetId: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', model: '' } },
      { type: 'setupTest', requestId: 2, draft: { presetId: 'openai', baseUrl: '', model: 'gpt-4o-mini', apiKey: 'sk-x' } },
      { type: 'setupSave', draft: { presetId: 'azure', baseUrl: 'https://r.openai.azure.com', model: 'dep', apiVersion: '2024-10-21', contextWindow: 0 } },
      { type: 'searchHistory', query: 'login bug' },
      { type: 'deleteRun', runId: 'r1' },
      { type: 'exportRun', runId: 'r1', format: 'markdown' },
      { type: 'exportRun', runId: 'r1', format: 'json' },
      { type: 'exportRun', runId: 'r1' },
      { type: 'stopCommand', callId: 'c1' },
      { type: 'backgroundCommand', callId: 'c1' },
      { type: 'setPermissionMode', mode: 'auto' },
    ];
    for (const message of valid) assert.equal(parseIntent(message).ok, true, JSON.stringify(message));
    assert.deepEqual(new Set(valid.map((m) => (m as { type: string }).type)), new Set(WebviewIntent.options.map((o) => o.shape.type.value)),
      'the test lists every intent type, so a new one must be added here on purpose');
  });

  it('rejects malformed intents and anything that is not an intent', () => {
    const invalid: unknown[] = [
      null, 'cancel', 42, {}, { type: 'runCommand', command: 'rm -rf /' }, { type: 'writeFile', path: 'a', content: 'x' },
      { type: 'submitTask', text: '   ', planMode: 'auto' },
      { type: 'submitTask', text: 'x', planMode: 'sometimes' },
      { type: 'approve' },
      { type: 'approve', callId: '' },
      { type: 'reject', callId: 'c', reason: 'x'.repeat(5000) },
      { type: 'openFile', path: '' },
      { type: 'openFile', path: 'a.ts', line: 0 },
      { type: 'ready', view: 'editor', lastSeq: 0 },
      { type: 'ready', view: 'panel', lastSeq: -2 },
      { type: 'runPlan', steps: [] },
      { type: 'runPlan', steps: [{ title: '', description: '', role: 'coder' }] },
      { type: 'runPlan', steps: [{ title: 'x', description: '', role: 'hacker' }] },
      { type: 'answer', callId: 'q', answer: 7 },
      { type: 'mcpRestart' },
      { type: 'exportRun', runId: 'r1', format: 'pdf' },
      { type: 'deleteRun', runId: '' },
      { type: 'searchHistory', query: 'x'.repeat(201) },
      { type: 'stopCommand' },
      { type: 'mcpRestart', name: '' },
      { type: 'mcpSetEnabled', name: 'memory' },
      { type: 'mcpSetEnabled', name: 'memory', enabled: 'yes' },
      { type: 'pinContext', callId: 'c1' },
      { type: 'setupTest', requestId: 1 },
      { type: 'setupSave', draft: { presetId: '', baseUrl: '', model: '' } },
      { type: 'setupListModels', requestId: 1.5, draft: { presetId: 'ollama', baseUrl: '', model: '' } },
      { type: 'undoCompaction', id: '' },
      { type: 'mcpStart', name: 'memory', command: 'node evil.js' },
      { type: 'submitTask', text: 'x', planMode: 'auto', images: [{ name: 'a.svg', mimeType: 'image/svg+xml', data: 'PHN2Zz48L3N2Zz4=' }] },
      { type: 'submitTask', text: 'x', planMode: 'auto', images: Array.from({ length: 5 }, () => ({ name: 'a.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' })) },
      { type: 'submitTask', text: 'x', planMode: 'auto', images: [{ name: 'big.png', mimeType: 'image/png', data: 'A'.repeat(7_000_000 + 8) }] },
      { type: 'mentionUris', uris: [] },
    ];
    for (const message of invalid) {
      const result = parseIntent(message);
      assert.equal(result.ok, false, JSON.stringify(message));
      if (!result.ok) assert.ok(result.error.length > 0, 'a rejected message comes with a reason to log');
    }
  });

  it('trims task text', () => {
    const result = parseIntent({ type: 'submitTask', text: '  do it \n', planMode: 'never' });
    assert.ok(result.ok);
    assert.deepEqual(result.intent, { type: 'submitTask', text: 'do it', planMode: 'never' });
  });

  it('accepts host messages and rejects broken ones', () => {
    const good: unknown[] = [
      { type: 'events', runId: 'r', envelopes: envelopes('r', plannedRun()) },
      { type: 'reset', runId: 'r', task: 'T' },
      { type: 'reset' },
      { type: 'status', status: { configured: false, trusted: true, running: false, history: [{ runId: 'r', task: 'T', ts: 1, outcome: 'finished' }] } },
      { type: 'l10n', strings: { send: '发送' }, lang: 'zh-cn' },
      { type: 'planReview', runId: 'r', plan: { goal: 'g', thought: '', steps: [{ id: 's', title: 'S', description: '', role: 'coder', status: 'pending' }] } },
      { type: 'planReview', plan: null },
      { type: 'status', status: { configured: true, trusted: true, running: false, history: [], workspaceUri: 'https://file+.vscode-resource.vscode-cdn.net/home/u/ws' } },
      { type: 'mcpServers', servers: [] },
      { type: 'mentionPaths', paths: ['src/a.ts', 'docs/'], refused: 1 },
      { type: 'focusInput' },
      { type: 'mcpServers', servers: [
        { name: 'everything', status: 'connected', tools: ['everything__echo', 'everything__add'], transport: 'stdio', source: '.vscode/mcp.json' },
        { name: 'broken', status: 'error', tools: [], lastError: 'spawn nope ENOENT' },
      ] },
    ];
    for (const message of good) assert.equal(parseHostMessage(message).ok, true, JSON.stringify(message).slice(0, 200));
    const bad: unknown[] = [
      { type: 'events', runId: 'r', envelopes: [{ v: 1, seq: 0, runId: 'r', ts: 0, event: { type: 'text_delta' } }] },
      { type: 'events', runId: 'r', envelopes: [{ v: 2, seq: 0, runId: 'r', ts: 0, event: { type: 'text_delta', text: 'x' } }] },
      { type: 'status', status: { configured: true, trusted: true, running: false } },
      { type: 'state', everything: {} },
      { type: 'planReview', plan: { goal: 'g', thought: '', steps: [] } },
      { type: 'mcpServers' },
      { type: 'mcpServers', servers: [{ name: 'x', status: 'sleeping', tools: [] }] },
      { type: 'mcpServers', servers: [{ name: 'x', status: 'connected' }] },
      { type: 'mcpServers', servers: [{ name: '', status: 'connected', tools: [] }] },
      { type: 'status', status: { configured: true, trusted: true, running: false, history: [], workspaceUri: 42 } },
    ];
    for (const message of bad) assert.equal(HostMessage.safeParse(message).success, false, JSON.stringify(message));
  });
});
