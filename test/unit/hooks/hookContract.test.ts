import { strict as assert } from 'node:assert';
import { HooksConfig, matches, matchingHooks, type HookEvent } from '../../../src/agent/hooks/hookConfig';
import { hookVerdict, type HookProcessResult, type HookVerdict } from '../../../src/agent/hooks/hookVerdict';
import { messageOfLine } from '../../../src/cli/cliInput';
import { MessageInbox, inboxNote } from '../../../src/agent/loop/messageInbox';
import { askedReason } from '../../../src/agent/flow/planUpdater';

// Claude Code's hook contract as tables: what a hook's exit and output mean, which tools a matcher
// picks, what a stream-json line carries.

const ran = (exitCode: number | null, stdout = '', stderr = '', extra: Partial<HookProcessResult> = {}): HookProcessResult => ({ exitCode, stdout, stderr, timedOut: false, cancelled: false, ...extra });

describe('hook verdicts (exit codes and JSON on stdout)', () => {
  const cases: Array<[string, HookEvent, HookProcessResult, HookVerdict]> = [
    ['exit 0, nothing said: go on', 'PreToolUse', ran(0), { kind: 'continue' }],
    ['exit 2 blocks with stderr as the reason', 'PreToolUse', ran(2, 'ignored', 'no rm here\n'), { kind: 'block', reason: 'no rm here' }],
    ['exit 2 without stderr still blocks', 'PreToolUse', ran(2), { kind: 'block', reason: 'blocked by a hook (exit 2, no reason given)' }],
    ['exit 1 is an error, not a block', 'PreToolUse', ran(1, '', 'oops'), { kind: 'error', message: 'exited with 1: oops' }],
    ['a signal is an error', 'Stop', ran(null), { kind: 'error', message: 'exited with a signal' }],
    ['a timeout is an error', 'PreToolUse', ran(null, '', '', { timedOut: true }), { kind: 'error', message: 'timed out after 5 s and was ended' }],
    ['permissionDecision deny blocks with its reason', 'PreToolUse', ran(0, JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'not on main' } })), { kind: 'block', reason: 'not on main' }],
    ['permissionDecision allow does not skip the approval policy: go on', 'PreToolUse', ran(0, JSON.stringify({ hookSpecificOutput: { permissionDecision: 'allow' } })), { kind: 'continue' }],
    ['decision block blocks', 'PostToolUse', ran(0, JSON.stringify({ decision: 'block', reason: 'lint failed' })), { kind: 'block', reason: 'lint failed' }],
    ['continue false blocks with stopReason', 'Stop', ran(0, JSON.stringify({ continue: false, stopReason: 'tests red' })), { kind: 'block', reason: 'tests red' }],
    ['additionalContext is context', 'PostToolUse', ran(0, JSON.stringify({ hookSpecificOutput: { additionalContext: 'ran prettier' } })), { kind: 'continue', context: 'ran prettier' }],
    ['plain stdout is context for SessionStart', 'SessionStart', ran(0, 'branch: main\n'), { kind: 'continue', context: 'branch: main' }],
    ['plain stdout is context for UserPromptSubmit', 'UserPromptSubmit', ran(0, 'ticket ABC-1'), { kind: 'continue', context: 'ticket ABC-1' }],
    ['plain stdout is not context for PreToolUse', 'PreToolUse', ran(0, 'checked'), { kind: 'continue' }],
    ['JSON of the wrong shape is an error', 'PreToolUse', ran(0, JSON.stringify({ decision: 3 })), { kind: 'error', message: 'printed JSON Stepwise cannot read: ✖ Invalid input: expected string, received number   → at decision' }],
  ];
  for (const [name, event, result, verdict] of cases) {
    it(name, () => assert.deepEqual(hookVerdict(event, result, 5), verdict));
  }
});

describe('hook matchers (Claude Code: name, A|B, regular expression, empty or * for all)', () => {
  const cases: Array<[string | undefined, string, boolean]> = [
    [undefined, 'run_command', true],
    ['', 'run_command', true],
    ['*', 'edit_file', true],
    ['run_command', 'run_command', true],
    ['run_command', 'run_command_x', false],
    ['edit_file|write_file', 'write_file', true],
    ['edit_file|write_file', 'read_file', false],
    ['mcp__.*', 'mcp__github__create_issue', true],
    ['(', '(', true],
    ['(', 'run_command', false],
  ];
  for (const [matcher, tool, expected] of cases) {
    it(`${JSON.stringify(matcher)} ${expected ? 'matches' : 'does not match'} ${tool}`, () => assert.equal(matches(matcher, tool), expected));
  }

  it('picks the hooks of the event whose matcher accepts the tool, in order, with their source', () => {
    const config = HooksConfig.parse({
      PreToolUse: [
        { matcher: 'run_command', hooks: [{ type: 'command', command: 'a' }] },
        { matcher: 'edit_file', hooks: [{ type: 'command', command: 'b' }] },
        { hooks: [{ type: 'command', command: 'c', timeout: 3 }] },
      ],
      Stop: [{ hooks: [{ type: 'command', command: 'd' }] }],
    });
    assert.deepEqual(matchingHooks([{ source: 'user', config }], 'PreToolUse', 'run_command').map((h) => [h.command, h.source, h.timeout]), [['a', 'user', undefined], ['c', 'user', 3]]);
    assert.deepEqual(matchingHooks([{ source: 'user', config }], 'Stop').map((h) => h.command), ['d']);
    assert.equal(HooksConfig.safeParse({ OnSave: [] }).success, false, 'unknown events are refused');
  });
});

describe('--input stream-json lines and the inbox', () => {
  const cases: Array<[string, ReturnType<typeof messageOfLine>]> = [
    ['{"type":"user","message":{"role":"user","content":"also the changelog"}}', { text: 'also the changelog' }],
    ['{"type":"user","message":{"content":[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}]}}', { text: 'a\nb' }],
    ['{"type":"user","message":{"content":"   "}}', { problem: 'no text in the message' }],
    ['{"type":"assistant","message":{"content":"x"}}', { problem: 'not {"type":"user","message":{"content":…}}' }],
    ['not json', { problem: 'not JSON' }],
  ];
  for (const [line, expected] of cases) it(line, () => assert.deepEqual(messageOfLine(line), expected));

  it('the inbox hands each message over once, oldest first, and tells listeners', () => {
    const inbox = new MessageInbox();
    let heard = 0;
    inbox.onMessage(() => heard++);
    inbox.push('first');
    inbox.push('  ');
    inbox.push('second');
    assert.equal(inbox.size, 2);
    assert.equal(heard, 2);
    assert.deepEqual(inbox.take(), ['first', 'second']);
    assert.deepEqual(inbox.take(), []);
    assert.match(inboxNote(['a', 'b']), /sent messages while you were working[\s\S]*1\. a\n2\. b/);
  });

  it('a plan change the user asked for quotes them first', () => {
    assert.equal(askedReason(['add tests'], 'added a test step'), 'you asked: "add tests" — added a test step');
    assert.match(askedReason(['x'.repeat(400)], 'r'), /^you asked: "x{300}…" — r$/);
  });
});
