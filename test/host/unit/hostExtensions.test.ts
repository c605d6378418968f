import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtinTools } from '../../../src/agent/tools/builtins';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import { promptSuggestions, readHostExtensions, toolsWithSkills } from '../../../src/host/common/task/hostExtensions';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';

// What VS Code runs take from skills, roles and prompt files: the workspace's only when trusted, the user's always.
describe('VS Code: skills, roles and prompt files by workspace trust', () => {
  let ws: string;
  let home: string;
  const put = async (root: string, file: string, text: string) => {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  };
  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-hostext-ws-'));
    home = await mkdtemp(path.join(tmpdir(), 'stepwise-hostext-home-'));
    await put(ws, '.stepwise/skills/repo/SKILL.md', '---\nname: repo\ndescription: the repo skill\n---\nrepo');
    await put(ws, '.stepwise/agents/reviewer.md', '---\ndescription: reviews\ntools: Read\n---\nr');
    await put(ws, '.github/prompts/fix.prompt.md', '---\ndescription: Fix it\nargument-hint: ISSUE\n---\nFix ${input:issue}');
    await put(home, '.stepwise/skills/mine/SKILL.md', '---\nname: mine\ndescription: my skill\n---\nmine');
    await put(home, '.stepwise/prompts/hello.md', 'Hello $ARGUMENTS');
  });
  afterEach(async () => {
    await rm(ws, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  const table: Array<{ trusted: boolean; skills: string[]; roles: string[]; prompts: string[] }> = [
    { trusted: true, skills: ['mine', 'repo'], roles: ['reviewer'], prompts: ['hello', 'fix'] },
    { trusted: false, skills: ['mine'], roles: [], prompts: ['hello'] },
  ];
  for (const row of table) {
    it(`${row.trusted ? 'a trusted' : 'an untrusted (Restricted Mode)'} workspace: skills ${row.skills.join(', ')}; roles ${row.roles.join(', ') || 'none'}`, async () => {
      const got = await readHostExtensions(new NodeWorkspace(ws), row.trusted, { HOME: home });
      assert.deepEqual(got.skills.map((s) => s.name), row.skills);
      assert.deepEqual(got.roles.map((r) => r.name), row.roles);
      assert.deepEqual(got.prompts.map((p) => p.name), row.prompts);
    });
  }

  it('the skill tool joins the run\'s tools (the shared registry unchanged); the chat box\'s / list filters by name', async () => {
    const got = await readHostExtensions(new NodeWorkspace(ws), true, { HOME: home });
    const shared = new ToolRegistry(builtinTools());
    const tools = toolsWithSkills(shared, got);
    assert.ok(tools.names().includes('skill'));
    assert.ok(!shared.names().includes('skill'));
    assert.equal(toolsWithSkills(shared, { ...got, skills: [] }), shared);
    assert.deepEqual(promptSuggestions(got.prompts, '/f'), [{ kind: 'command', insert: 'fix', label: '/fix ISSUE — Fix it' }]);
    assert.deepEqual(promptSuggestions(got.prompts, '/').map((s) => s.insert), ['hello', 'fix']);
  });
});
