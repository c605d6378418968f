import { strict as assert } from 'node:assert';
import { windowsPathProblem } from '../../../src/node/windowsPaths';
import { WINDOWS_PATH_ATTACKS, WINDOWS_PATHS_ACCEPTED } from '../../windows/pathAttackTable';

// The pure half of the Windows path rules (what `PathGuard` refuses before touching the file
// system on win32); test/windows/pathAttacks.win.ts runs the guard itself under Node for Windows.
describe('Windows path spellings (table)', () => {
  for (const [input, construct] of WINDOWS_PATH_ATTACKS.filter(([, , byName]) => byName)) {
    it(`refuses ${construct}: ${JSON.stringify(input)}`, () => assert.ok(windowsPathProblem(input), input));
  }
  for (const input of WINDOWS_PATHS_ACCEPTED) {
    it(`lets ${JSON.stringify(input)} through to the confinement check`, () => assert.equal(windowsPathProblem(input), undefined));
  }
});
