import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// A repository whose own configuration names programs: each row sets one way git could be made to
// start a program (a script that leaves a marker file), and says which plain git call does start it
// (the control: proof that the row is a real threat, not a setting git would ignore anyway).

/** The git identity and isolation every fixture command uses (no prompt, no user config surprises). */
export const FIXTURE_GIT_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', GIT_TERMINAL_PROMPT: '0',
};

/** Runs git in `cwd` as a user would (the repository's config applies in full). */
export function plainGit(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, env: FIXTURE_GIT_ENV, encoding: 'utf8', timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
  return `${r.stdout}${r.stderr}`;
}

/** A hostile repository: `ws` is the work tree, markers appear in `markers` when a program runs. */
export interface HostileRepo {
  ws: string;
  markers: string;
  /** Writes an executable script `name` that touches its marker (then passes stdin through, like a filter). */
  script(name: string, body?: string): string;
  /** The markers present now. */
  fired(): string[];
  clearMarkers(): void;
}

/** Creates a committed repository with `README.md` and `data.txt`, then changes both (so @changes has a diff). */
export function makeHostileRepo(root: string): HostileRepo {
  const ws = path.join(root, 'ws');
  const markers = path.join(root, 'markers');
  const bin = path.join(root, 'bin');
  for (const dir of [ws, markers, bin]) mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(ws, 'README.md'), '# demo\n');
  writeFileSync(path.join(ws, 'data.txt'), 'one\n');
  execFileSync('git', ['init', '-q'], { cwd: ws, env: FIXTURE_GIT_ENV });
  execFileSync('git', ['add', '.'], { cwd: ws, env: FIXTURE_GIT_ENV });
  execFileSync('git', ['commit', '-qm', 'init'], { cwd: ws, env: FIXTURE_GIT_ENV });
  writeFileSync(path.join(ws, 'README.md'), '# demo\nCHANGED-MARKER\n');
  writeFileSync(path.join(ws, 'data.txt'), 'one\ntwo\n');
  return {
    ws,
    markers,
    script(name, body = 'cat') {
      const file = path.join(bin, `${name}.sh`);
      writeFileSync(file, `#!/bin/sh\ntouch '${path.join(markers, name)}'\n${body}\n`);
      chmodSync(file, 0o755);
      return file;
    },
    fired: () => readdirSync(markers).sort(),
    clearMarkers: () => {
      for (const m of readdirSync(markers)) unlinkSync(path.join(markers, m));
    },
  };
}

/** One way a repository's config could start a program. */
export interface HostileRow {
  name: string;
  /** Sets the repository up (config, attributes, hooks); returns the marker the program leaves. */
  setup(repo: HostileRepo): string;
  /** Runs the plain git call that does start the program (the control). */
  control(repo: HostileRepo): void;
  /** False when @changes can show no patch in this repository (a blob is missing on purpose). */
  diffShown: boolean;
}

const config = (repo: HostileRepo, ...pairs: [string, string][]) => {
  for (const [key, value] of pairs) execFileSync('git', ['config', key, value], { cwd: repo.ws, env: FIXTURE_GIT_ENV });
};
const attributes = (repo: HostileRepo, text: string) => writeFileSync(path.join(repo.ws, '.gitattributes'), text);

/** The table of acceptance item 2: fsmonitor, external diff, pager, ssh command, textconv, filters, hooks, includes. */
export const HOSTILE_ROWS: HostileRow[] = [
  {
    name: 'core.fsmonitor',
    setup: (repo) => (config(repo, ['core.fsmonitor', repo.script('fsmonitor', 'exit 0')]), 'fsmonitor'),
    control: (repo) => plainGit(repo.ws, 'status', '--short'),
    diffShown: true,
  },
  {
    name: 'diff.external',
    setup: (repo) => (config(repo, ['diff.external', repo.script('extdiff', 'exit 0')]), 'extdiff'),
    control: (repo) => plainGit(repo.ws, 'diff', 'HEAD'),
    diffShown: true,
  },
  {
    name: 'core.pager (with a terminal)',
    setup: (repo) => (config(repo, ['core.pager', repo.script('pager')]), 'pager'),
    // A pager starts only on a terminal: `script` gives git one.
    control: (repo) => void spawnSync('script', ['-qec', 'git diff HEAD', '/dev/null'], { cwd: repo.ws, env: FIXTURE_GIT_ENV, timeout: 30_000, stdio: 'ignore' }),
    diffShown: true,
  },
  {
    name: 'core.sshCommand (a partial clone fetching a missing blob)',
    setup: (repo) => {
      const blob = plainGit(repo.ws, 'rev-parse', 'HEAD:data.txt').trim();
      rmSync(path.join(repo.ws, '.git', 'objects', blob.slice(0, 2), blob.slice(2)), { force: true });
      config(repo, ['core.repositoryformatversion', '1'], ['extensions.partialClone', 'origin'], ['remote.origin.url', 'ssh://example.invalid/x'],
        ['remote.origin.promisor', 'true'], ['core.sshCommand', repo.script('ssh', 'exit 1')]);
      return 'ssh';
    },
    control: (repo) => plainGit(repo.ws, 'diff', 'HEAD'),
    diffShown: false,
  },
  {
    name: 'diff.<driver>.textconv (named in .gitattributes)',
    setup: (repo) => (attributes(repo, '*.txt diff=evil\n'), config(repo, ['diff.evil.textconv', repo.script('textconv', 'cat "$1"')]), 'textconv'),
    control: (repo) => plainGit(repo.ws, 'diff', 'HEAD'),
    diffShown: true,
  },
  {
    name: 'filter.<driver>.clean/smudge (required)',
    setup: (repo) => {
      attributes(repo, '*.txt filter=evil\n');
      config(repo, ['filter.evil.clean', repo.script('clean')], ['filter.evil.smudge', repo.script('smudge')], ['filter.evil.required', 'true']);
      return 'clean';
    },
    control: (repo) => plainGit(repo.ws, 'diff', 'HEAD'),
    diffShown: true,
  },
  {
    name: 'filter.<driver>.process (required)',
    setup: (repo) => (attributes(repo, '*.txt filter=evilp\n'), config(repo, ['filter.evilp.process', repo.script('process', 'exit 1')], ['filter.evilp.required', 'true']), 'process'),
    control: (repo) => plainGit(repo.ws, 'diff', 'HEAD'),
    diffShown: true,
  },
  {
    name: 'core.hooksPath (post-index-change fires when status refreshes the index)',
    setup: (repo) => {
      const hooks = path.join(path.dirname(repo.markers), 'hooks');
      mkdirSync(hooks, { recursive: true });
      const hook = repo.script('hook', 'exit 0');
      writeFileSync(path.join(hooks, 'post-index-change'), `#!/bin/sh\nexec '${hook}'\n`);
      chmodSync(path.join(hooks, 'post-index-change'), 0o755);
      config(repo, ['core.hooksPath', hooks]);
      // A clean file whose stat data changed: status refreshes the index and writes it.
      writeFileSync(path.join(repo.ws, 'clean.txt'), 'clean\n');
      plainGit(repo.ws, '-c', 'core.hooksPath=/dev/null', 'add', 'clean.txt');
      plainGit(repo.ws, '-c', 'core.hooksPath=/dev/null', 'commit', '-qm', 'clean');
      return 'hook';
    },
    control: (repo) => {
      execFileSync('touch', ['-d', '2001-01-01', path.join(repo.ws, 'clean.txt')]);
      plainGit(repo.ws, 'status', '--short');
    },
    diffShown: true,
  },
  {
    name: 'include.path pulling in a filter driver',
    setup: (repo) => {
      const included = path.join(path.dirname(repo.markers), 'included.cfg');
      writeFileSync(included, `[filter "inc"]\n\tclean = ${repo.script('included')}\n\trequired = true\n`);
      attributes(repo, '*.txt filter=inc\n');
      config(repo, ['include.path', included]);
      return 'included';
    },
    control: (repo) => plainGit(repo.ws, 'diff', 'HEAD'),
    diffShown: true,
  },
];

/** True when `file` exists (a marker). */
export const exists = (file: string): boolean => existsSync(file);
