import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gitChanges } from '../../../src/node/gitChanges';
import { openNeutralGit } from '../../../src/node/git/neutralGit';
import { parseMentions } from '../../../src/agent/mentions';
import { nodeMentionResolver } from '../../../src/node/nodeMentionResolver';
import { NodeWorkspace } from '../../../src/node/nodeWorkspace';
import { HOSTILE_ROWS, makeHostileRepo, plainGit, type HostileRepo } from '../../support/hostileRepo';

// Acceptance 2 (one shell-independent half): a repository's own .git/config cannot make Stepwise's
// git start a program. Each row first proves the threat with plain git (the control starts the
// program), then runs @changes through the code both shells call: the CLI's NodeMentionResolver and
// `gitChanges`, which VS Code's resolver (src/host/vscode/mentions/vscodeMentionResolver.ts) calls
// as is. The marker stays absent and @changes still shows the change.
describe('git on the user repository runs with a neutral configuration', function () {
  this.timeout(60_000);
  let root: string;
  let repo: HostileRepo;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'stepwise-neutral-git-'));
    repo = makeHostileRepo(root);
  });
  afterEach(async () => rm(root, { recursive: true, force: true }));

  for (const row of HOSTILE_ROWS) {
    it(`${row.name}: plain git starts it; @changes does not, and still shows the change`, async () => {
      const marker = row.setup(repo);
      row.control(repo);
      assert.deepEqual(repo.fired(), [marker], 'control: plain git starts the program the repository names');
      repo.clearMarkers();

      const direct = await gitChanges(repo.ws, new AbortController().signal);
      const [mention] = parseMentions('see @changes');
      assert.ok(mention);
      const viaResolver = await nodeMentionResolver(new NodeWorkspace(repo.ws)).resolve(mention, new AbortController().signal);
      assert.deepEqual(repo.fired(), [], 'no program the repository names ran');
      for (const result of [direct, viaResolver as typeof direct]) {
        assert.ok(result.ok, JSON.stringify(result));
        assert.match(result.content, / M README\.md/);
        if (row.diffShown) assert.match(result.content, /\+CHANGED-MARKER/);
      }
    });
  }

  it("the user's own global config stays: their filter runs even where the repository redefines it", async () => {
    const global = path.join(root, 'global.gitconfig');
    await writeFile(global, `[filter "shared"]\n\tclean = ${repo.script('users-own')}\n`);
    await writeFile(path.join(repo.ws, '.gitattributes'), '*.txt filter=shared\n');
    plainGit(repo.ws, 'config', 'filter.shared.clean', repo.script('repository'));
    const before = process.env.GIT_CONFIG_GLOBAL;
    process.env.GIT_CONFIG_GLOBAL = global;
    try {
      const result = await gitChanges(repo.ws, new AbortController().signal);
      assert.ok(result.ok);
      assert.match(result.content, /\+two/);
    } finally {
      if (before === undefined) delete process.env.GIT_CONFIG_GLOBAL;
      else process.env.GIT_CONFIG_GLOBAL = before;
    }
    assert.deepEqual(repo.fired(), ['users-own']);
  });

  it('refuses any subcommand that is not a known read (deny by default)', async () => {
    const opened = await openNeutralGit(repo.ws, { signal: new AbortController().signal });
    assert.ok(opened.ok);
    for (const sub of ['commit', 'checkout', 'fetch', 'gc', 'constructor', '-c']) {
      const out = await opened.git(sub, []);
      assert.equal(out.exitCode, -1, sub);
      assert.match(out.stderr, /not one of the read-only commands/);
    }
    assert.equal((await opened.git('rev-parse', ['--is-inside-work-tree'])).stdout.trim(), 'true');
  });

  it('a config git cannot read means no git runs, with the reason', async () => {
    await writeFile(path.join(repo.ws, '.git', 'config'), '[core\n\tbroken');
    const result = await gitChanges(repo.ws, new AbortController().signal);
    assert.equal(result.ok, false);
    assert.match((result as { reason: string }).reason, /git config could not be read/);
  });
});
