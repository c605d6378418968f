import { strict as assert } from 'node:assert';
import { parseFrontMatter } from '../../../src/agent/extensions/frontMatter';
import { expandPromptCommand } from '../../../src/agent/extensions/promptCommand';
import { modelTier, toolNames } from '../../../src/agent/extensions/loadExtensions';
import type { PromptFile } from '../../../src/agent/extensions/extensionTypes';

describe('front matter (SKILL.md, agents, prompt files)', () => {
  const cases: Array<{ name: string; text: string; data?: Record<string, unknown>; body?: string; error?: RegExp }> = [
    { name: 'name and description', text: '---\nname: a\ndescription: b c\n---\nBody\n', data: { name: 'a', description: 'b c' }, body: 'Body' },
    { name: 'no front matter: all body', text: '# Title\ntext\n', data: {}, body: '# Title\ntext' },
    { name: 'BOM and CRLF', text: '\uFEFF---\r\nname: x\r\n---\r\nB\r\n', data: { name: 'x' }, body: 'B' },
    { name: 'empty front matter', text: '---\n---\nB', data: {}, body: 'B' },
    { name: 'a list of tools', text: '---\ntools: [Read, Grep]\n---\n', data: { tools: ['Read', 'Grep'] }, body: '' },
    { name: 'a later --- in the body stays body', text: '---\na: 1\n---\none\n---\ntwo', data: { a: 1 }, body: 'one\n---\ntwo' },
    { name: 'unclosed', text: '---\nname: a\nBody', error: /no closing/ },
    { name: 'bad YAML', text: '---\nname: [a\n---\n', error: /not valid YAML/ },
    { name: 'a list is not a mapping', text: '---\n- a\n- b\n---\n', error: /not a mapping/ },
    { name: 'a scalar is not a mapping', text: '---\njust text\n---\n', error: /not a mapping/ },
    { name: 'an alias bomb is refused', text: '---\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n---\n', error: /not valid YAML/ },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const parsed = parseFrontMatter(c.text);
      if (c.error) {
        assert.equal(parsed.ok, false);
        if (!parsed.ok) assert.match(parsed.error, c.error);
        return;
      }
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
      assert.deepEqual(parsed.data, c.data);
      assert.equal(parsed.body, c.body);
    });
  }
  it('a __proto__ key sets no prototype', () => {
    const parsed = parseFrontMatter('---\n__proto__:\n  polluted: yes\n---\n');
    assert.ok(parsed.ok);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

describe('tool names and model tiers of custom roles (Claude Code, VS Code and Stepwise spellings)', () => {
  const tools: Array<[unknown, string[] | undefined]> = [
    ['Read, Grep, Glob', ['read_file', 'search_files', 'list_files']],
    [['Bash', 'Edit', 'MultiEdit', 'Write'], ['run_command', 'edit_file', 'write_file']],
    [['read_file', 'web_fetch', 'mcp_server_tool'], ['read_file', 'web_fetch', 'mcp_server_tool']],
    [['codebase', 'fetch'], ['search_files', 'web_fetch']],
    ['', []],
    [42, undefined],
  ];
  for (const [raw, want] of tools) it(`tools ${JSON.stringify(raw)}`, () => assert.deepEqual(toolNames(raw), want));
  const tiers: Array<[unknown, string | undefined]> = [['haiku', 'basic'], ['opus', 'reasoning'], ['sonnet', 'default'], ['inherit', 'default'], ['Reasoning', 'reasoning'], ['gpt-5', undefined], [undefined, undefined]];
  for (const [raw, want] of tiers) it(`model ${String(raw)}`, () => assert.equal(modelTier(raw), want));
});

describe('/name prompt commands', () => {
  const prompt = (name: string, body: string): PromptFile => ({ name, body, path: `.stepwise/prompts/${name}.md`, source: 'workspace' });
  const prompts = [prompt('changelog', 'Entry for $ARGUMENTS.'), prompt('pair', 'From $1 to $2.'), prompt('plain', 'Tidy up.'), prompt('vsc', 'Explain ${input:topic} and ${input:level:basic}.')];
  const cases: Array<[string, ReturnType<typeof expandPromptCommand>]> = [
    ['/changelog 2.1.0', { kind: 'expanded', name: 'changelog', task: 'Entry for 2.1.0.' }],
    ['  /changelog', { kind: 'expanded', name: 'changelog', task: 'Entry for .' }],
    ['/pair a b c', { kind: 'expanded', name: 'pair', task: 'From a to b.' }],
    ['/plain the tests folder', { kind: 'expanded', name: 'plain', task: 'Tidy up.\n\nthe tests folder' }],
    ['/plain', { kind: 'expanded', name: 'plain', task: 'Tidy up.' }],
    ['/vsc events', { kind: 'expanded', name: 'vsc', task: 'Explain events and events.' }],
    ['/changelog\nmulti\nline', { kind: 'expanded', name: 'changelog', task: 'Entry for multi\nline.' }],
    ['/nosuch x', { kind: 'unknown', name: 'nosuch', known: ['changelog', 'pair', 'plain', 'vsc'] }],
    ['/etc/hosts is broken', { kind: 'none' }],
    ['fix /changelog', { kind: 'none' }],
    ['/ space', { kind: 'none' }],
  ];
  for (const [text, want] of cases) it(JSON.stringify(text), () => assert.deepEqual(expandPromptCommand(text, prompts), want));
});
