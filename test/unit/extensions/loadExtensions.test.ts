import { strict as assert } from 'node:assert';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { workspaceFolder } from '../../../src/agent/extensions/extensionFolder';
import { loadExtensions, MAX_EXTENSION_FILE_BYTES } from '../../../src/agent/extensions/loadExtensions';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';
import { userExtensionFolder } from '../../../src/node/extensions/userExtensionFolder';

// Skills, roles and prompt files from a real workspace folder and a real ~/.stepwise, on disk.
describe('loadExtensions (real folders)', () => {
  let ws: string;
  let home: string;
  let outside: string;
  const put = async (root: string, file: string, text: string) => {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  };
  beforeEach(async () => {
    ws = await mkdtemp(path.join(tmpdir(), 'stepwise-ext-ws-'));
    home = await mkdtemp(path.join(tmpdir(), 'stepwise-ext-user-'));
    outside = await mkdtemp(path.join(tmpdir(), 'stepwise-ext-out-'));
  });
  afterEach(async () => {
    for (const dir of [ws, home, outside]) await rm(dir, { recursive: true, force: true });
  });
  const load = () => loadExtensions([workspaceFolder(new NodeWorkspace(ws)), userExtensionFolder(home)]);

  it('reads every place of each kind, the user folder first (a repository cannot shadow the user\'s skill or role)', async () => {
    await put(ws, '.stepwise/skills/a/SKILL.md', '---\nname: shared\ndescription: from the repo\n---\nrepo body');
    await put(ws, '.agents/skills/b/SKILL.md', '---\ndescription: folder name is the name\n---\nb');
    await put(ws, '.claude/skills/c/SKILL.md', '---\nname: c\ndescription: claude\n---\nc');
    await put(home, 'skills/s/SKILL.md', '---\nname: shared\ndescription: the user\'s\n---\nuser body');
    await put(ws, '.stepwise/agents/rev.md', '---\nname: rev\ndescription: r\n---\np');
    await put(ws, '.claude/agents/tester.md', '---\nname: tester\ndescription: t\ntools: Bash\n---\np');
    await put(ws, '.github/agents/doc.agent.md', '---\ndescription: d\n---\np');
    await put(ws, '.github/agents/notes.md', '---\ndescription: not an .agent.md file\n---\n');
    await put(ws, '.stepwise/prompts/one.md', 'One');
    await put(ws, '.github/prompts/two.prompt.md', '---\ndescription: Two\nargument-hint: X\n---\nTwo');
    await put(home, 'prompts/three.md', 'Three');
    const got = await load();
    assert.deepEqual(got.problems, []);
    assert.deepEqual(got.skills.map((s) => [s.name, s.source, s.body]), [['shared', 'user', 'user body'], ['b', 'workspace', 'b'], ['c', 'workspace', 'c']]);
    assert.equal(got.skills[0]!.folder, path.join(home, 'skills/s'));
    assert.deepEqual(got.roles.map((r) => [r.name, r.tools]), [['rev', undefined], ['tester', ['run_command']], ['doc', undefined]]);
    assert.deepEqual(got.prompts.map((p) => [p.name, p.argumentHint]), [['three', undefined], ['one', undefined], ['two', 'X']]);
  });

  it('skips and names bad files: no description, a built-in role\'s name, a bad name, too big', async () => {
    await put(ws, '.stepwise/skills/nodesc/SKILL.md', '---\nname: nodesc\n---\nb');
    await put(ws, '.stepwise/agents/coder.md', '---\nname: coder\ndescription: mine\n---\n');
    await put(ws, '.stepwise/agents/bad.md', '---\nname: "has space"\ndescription: x\n---\n');
    await put(ws, '.stepwise/prompts/big.md', 'x'.repeat(MAX_EXTENSION_FILE_BYTES + 1));
    const got = await load();
    assert.equal(got.skills.length + got.roles.length + got.prompts.length, 0);
    const text = got.problems.join('\n');
    assert.match(text, /nodesc\/SKILL\.md: description/);
    assert.match(text, /coder\.md: "coder" is a built-in role/);
    assert.match(text, /bad\.md: name: a name is/);
    assert.match(text, /big\.md: unreadable or over 64 KB/);
  });

  it('follows no link out of the workspace or out of ~/.stepwise', async () => {
    await put(outside, 'SKILL.md', '---\nname: stolen\ndescription: secret\n---\nSECRET');
    await put(outside, 'p.md', 'SECRET PROMPT');
    await mkdir(path.join(ws, '.stepwise/skills/evil'), { recursive: true });
    await symlink(path.join(outside, 'SKILL.md'), path.join(ws, '.stepwise/skills/evil/SKILL.md'));
    await mkdir(path.join(home, 'prompts'), { recursive: true });
    await symlink(path.join(outside, 'p.md'), path.join(home, 'prompts/p.md'));
    await mkdir(path.join(home, 'skills'), { recursive: true });
    await symlink(outside, path.join(home, 'skills/linked'));
    const got = await load();
    assert.deepEqual(got.skills, []);
    assert.deepEqual(got.prompts, []);
  });
});
