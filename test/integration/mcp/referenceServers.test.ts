import assert from 'node:assert/strict';
import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { FILESYSTEM_SCRIPT, MEMORY_SCRIPT, makeHub, ofType, runScripted, stdioServer, tempDir, unframed } from './mcpKit';

describe('MCP hub with server-filesystem and server-memory in agent runs', function () {
  this.timeout(60_000);
  let kit: ReturnType<typeof makeHub>;
  let files: { path: string; remove: () => Promise<void> };
  let memory: { path: string; remove: () => Promise<void> };
  let filesRoot: string;

  before(async () => {
    files = await tempDir('stepwise-mcp-fs-');
    memory = await tempDir('stepwise-mcp-memory-');
    filesRoot = await realpath(files.path);
    kit = makeHub({ roots: [filesRoot] });
    await kit.hub.configure([
      stdioServer('filesystem', [FILESYSTEM_SCRIPT, filesRoot]),
      stdioServer('memory', [MEMORY_SCRIPT], { env: { MEMORY_FILE_PATH: join(memory.path, 'memory.jsonl') } }),
    ]);
  });

  after(async () => {
    await kit?.hub.dispose();
    await files?.remove();
    await memory?.remove();
  });

  it('connects both servers and offers their tools', () => {
    assert.deepEqual(kit.hub.states().map((s) => [s.name, s.status]), [
      ['filesystem', 'connected'],
      ['memory', 'connected'],
    ]);
    for (const name of ['filesystem__write_file', 'filesystem__read_text_file', 'memory__create_entities', 'memory__read_graph']) {
      assert.ok(kit.registry.get(name), name);
    }
  });

  it('writes a file and reads it back in a scripted task', async () => {
    const path = join(filesRoot, 'notes.txt');
    const { result, events, approvals } = await runScripted(
      kit.registry,
      [
        { toolCalls: [{ name: 'filesystem__write_file', arguments: { path, content: 'plan, then act\n' } }] },
        { toolCalls: [{ name: 'filesystem__read_text_file', arguments: { path } }] },
        { text: 'The note says: plan, then act.' },
      ],
      { decide: () => ({ approved: true }) },
    );
    assert.equal(result.outcome, 'finished');
    const results = ofType(events, 'tool_result');
    assert.deepEqual(results.map((r) => r.isError), [false, false]);
    assert.equal(unframed(results[1]?.content ?? ''), 'plan, then act\n');
    assert.equal(await readFile(path, 'utf8'), 'plan, then act\n');
    assert.deepEqual(approvals.map((a) => a.tool), ['filesystem__write_file', 'filesystem__read_text_file']);
  });

  it('returns the server refusal of a path outside the allowed folder as an error result', async () => {
    const { result, events } = await runScripted(
      kit.registry,
      [{ toolCalls: [{ name: 'filesystem__read_text_file', arguments: { path: '/etc/hostname' } }] }, { text: 'Not allowed.' }],
      { decide: () => ({ approved: true }) },
    );
    assert.equal(result.outcome, 'finished');
    const [refused] = ofType(events, 'tool_result');
    assert.equal(refused?.isError, true);
    assert.match(refused?.content ?? '', /Access denied|outside allowed directories/i);
  });

  it('creates an entity and reads the knowledge graph in a scripted task', async () => {
    const { result, events } = await runScripted(
      kit.registry,
      [
        {
          toolCalls: [
            {
              name: 'memory__create_entities',
              arguments: { entities: [{ name: 'Stepwise', entityType: 'project', observations: ['plans before it acts'] }] },
            },
          ],
        },
        { toolCalls: [{ name: 'memory__read_graph', arguments: {} }] },
        { text: 'Stepwise is remembered.' },
      ],
      { decide: () => ({ approved: true }) },
    );
    assert.equal(result.outcome, 'finished');
    const [created, graph] = ofType(events, 'tool_result');
    assert.equal(created?.isError, false);
    assert.equal(graph?.isError, false);
    const parsed = JSON.parse(unframed(graph?.content ?? '{}')) as { entities: { name: string; entityType: string; observations: string[] }[] };
    assert.deepEqual(parsed.entities, [{ name: 'Stepwise', entityType: 'project', observations: ['plans before it acts'] }]);
    assert.match(await readFile(join(memory.path, 'memory.jsonl'), 'utf8'), /"name":"Stepwise"/);
  });
});
