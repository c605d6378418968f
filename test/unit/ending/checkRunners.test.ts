import assert from 'node:assert/strict';
import { runsCheck } from '../../../src/agent/verify/checkRunners';
import type { ShellSyntax } from '../../../src/agent/policy/shellSyntax';
import { nodeShellSyntax } from '../../../src/node/shellWasm';

// Which command lines the agent runs count as checks (tests, builds, type checks, linters), read
// through the core's real shell parser (tree-sitter-bash), and through the plain fallback a core
// without the parser uses. [command, configured checks, is a check].
const CASES: Array<[string, string[], boolean]> = [
  ['npm test', [], true],
  ['npm t', [], true],
  ['npm run test', [], true],
  ['npm run test:unit -- --grep x', [], true],
  ['npm run build', [], true],
  ['npm run lint', [], true],
  ['npm run typecheck', [], true],
  ['npm --prefix web test', [], true],
  ['npm install', [], false],
  ['npm run dev', [], false],
  ['npm start', [], false],
  ['pnpm test', [], true],
  ['pnpm build', [], true],
  ['pnpm run check', [], true],
  ['pnpm exec vitest run', [], true],
  ['yarn test', [], true],
  ['yarn build', [], true],
  ['yarn add lodash', [], false],
  ['bun test', [], true],
  ['bun run build', [], true],
  ['bunx vitest', [], true],
  ['npx jest', [], true],
  ['npx vitest run', [], true],
  ['npx mocha test/x.test.js', [], true],
  ['npx tsc --noEmit', [], true],
  ['npx eslint src', [], true],
  ['npx prettier --write .', [], false],
  ['npx tsc --version', [], false],
  ['./node_modules/.bin/jest', [], true],
  ['jest --watchAll=false', [], true],
  ['mocha', [], true],
  ['tsc -p .', [], true],
  ['eslint .', [], true],
  ['pytest -q tests/', [], true],
  ['python -m pytest', [], true],
  ['python3 -m unittest discover', [], true],
  ['python -m pip install x', [], false],
  ['python tests/test_api.py', [], true],
  ['python app.py', [], false],
  ['mypy src', [], true],
  ['ruff check .', [], true],
  ['ruff format .', [], false],
  ['go test ./...', [], true],
  ['go build ./cmd/x', [], true],
  ['go vet ./...', [], true],
  ['go run main.go', [], false],
  ['cargo test', [], true],
  ['cargo build --release', [], true],
  ['cargo check', [], true],
  ['cargo clippy', [], true],
  ['cargo run', [], false],
  ['mvn test', [], true],
  ['mvn -q verify', [], true],
  ['./mvnw test', [], true],
  ['gradle test', [], true],
  ['./gradlew build', [], true],
  ['./gradlew :app:test', [], true],
  ['dotnet test', [], true],
  ['dotnet build', [], true],
  ['dotnet run', [], false],
  ['make test', [], true],
  ['make check', [], true],
  ['make clean', [], false],
  ['ctest --output-on-failure', [], true],
  ['phpunit', [], true],
  ['vendor/bin/phpunit', [], true],
  ['rspec', [], true],
  ['bundle exec rspec', [], true],
  ['node --test', [], true],
  ['node test/add.test.js', [], true],
  ['node build.js', [], false],
  ['deno test', [], true],
  ['swift test', [], true],
  ['mix test', [], true],
  ['flutter test', [], true],
  ['uv run pytest', [], true],
  ['poetry run pytest', [], true],
  ['ls -la', [], false],
  ['cat test.txt', [], false],
  ['grep -r test src', [], false],
  ['echo npm test', [], false],
  ['echo npm test', ['npm test'], false],
  ['git commit -m "run tests"', [], false],
  ['cd pkg && npm run test -- --grep x', [], true],
  ['cd web && npm test', [], true],
  ['(cd web; npm test) | tee log.txt', [], true],
  ['npm ci && npm run build', [], true],
  ['./scripts/check.sh', ['./scripts/check.sh'], true],
  ['cd web && ./scripts/check.sh --all', ['./scripts/check.sh'], true],
  ['./scripts/check.sh', [], false],
];

/** Rows the plain fallback (no parser) cannot read as the parser does: wrappers and shell strings. */
const PARSER_ONLY: Array<[string, boolean]> = [
  ['env CI=1 npm test', true],
  ['CI=true npm test', true],
  ['timeout 600 npm test', true],
  ['bash -c "npm test"', true],
  ['sh -c "cd web && pytest"', true],
  ['nice -n 5 cargo test', true],
  ['echo "npm test && pytest"', false],
  ['for d in a b; do (cd $d && npm test); done', true],
];

describe('check runners: which commands the agent runs count as evidence', () => {
  let syntax: ShellSyntax;
  before(async () => {
    syntax = await nodeShellSyntax();
  });

  for (const [command, checks, expected] of CASES) {
    it(`${JSON.stringify(command)}${checks.length ? ` (configured ${checks.join(', ')})` : ''} ${expected ? 'is' : 'is not'} a check`, () => {
      assert.equal(runsCheck(command, checks, syntax), expected, 'through the shell parser');
      assert.equal(runsCheck(command, checks), expected, 'through the plain fallback');
    });
  }

  for (const [command, expected] of PARSER_ONLY) {
    it(`${JSON.stringify(command)} ${expected ? 'is' : 'is not'} a check (shell parser)`, () => {
      assert.equal(runsCheck(command, [], syntax), expected);
    });
  }
});
