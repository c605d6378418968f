import assert from 'node:assert/strict';
import type { AgentEvent } from '../../../src/shared/events';
import { PromptFocus } from '../../../src/host/vscode/views/promptFocus';
import { readsImages } from '../../../src/host/vscode/views/readsImages';

type Step = AgentEvent | 'plan accepted' | 'worked in an editor';

const edit: AgentEvent = { type: 'approval_requested', callId: 'e1', category: 'edit', title: 'Edit src/a.js', detail: '', diff: { path: 'src/a.js', before: 'a', after: 'b' } };
const command: AgentEvent = { type: 'approval_requested', callId: 'c1', category: 'command', title: 'Run npm test', detail: 'npm test' };
const question: AgentEvent = { type: 'question_asked', callId: 'q1', question: 'Which language?' };
const keptEdit: AgentEvent = { type: 'approval_answered', callId: 'e1', approved: true };
const autoApproved: AgentEvent = { type: 'approval_answered', callId: 'r1', approved: true, auto: true };
const answered: AgentEvent = { type: 'question_answered', callId: 'q0', answer: 'French' };

/** Runs the steps; returns how many times the prompt view was focused. */
function focuses(steps: readonly Step[]): number {
  let count = 0;
  const focus = new PromptFocus(() => count++);
  for (const step of steps) {
    if (step === 'plan accepted') focus.answered();
    else if (step === 'worked in an editor') focus.workedElsewhere();
    else focus.observe(step);
  }
  return count;
}

describe('PromptFocus: when a new prompt takes the keyboard focus', () => {
  const table: Array<[string, Step[], number]> = [
    ['a command approval after an edit kept in the diff editor (issue 22, item 2)', [edit, keptEdit, command], 1],
    ['a question after an edit kept in the diff editor', [edit, keptEdit, question], 1],
    ['a command approval after the plan was accepted', ['plan accepted', command], 1],
    ['a question after an answered question', [answered, question], 1],
    ['the first prompt of a task: the view the user typed in handles it', [command], 0],
    ['an edit: its diff editor opens with the focus', [keptEdit, edit], 0],
    ['after an auto-approved call only: the user answered nothing', [autoApproved, command], 0],
    ['after the user went to work in an editor', [edit, keptEdit, 'worked in an editor', command], 0],
    ['back on the keyboard path after answering again', [keptEdit, 'worked in an editor', answered, command, question], 2],
    ['an answer and other events in between', [keptEdit, { type: 'turn_started', turn: 2, maxTurns: 30 }, command], 1],
  ];
  for (const [name, steps, expected] of table) {
    it(name, () => assert.equal(focuses(steps), expected));
  }
});

describe('readsImages: whether a configured model reads the task\'s images', () => {
  const table: Array<[string, { modelVision: string; modelVisionCapable: boolean }, boolean, boolean]> = [
    ['nothing set', { modelVision: '', modelVisionCapable: false }, false, false],
    ['a vision tier', { modelVision: 'gpt-4o', modelVisionCapable: false }, false, true],
    ['the main model marked vision-capable', { modelVision: '', modelVisionCapable: true }, false, true],
    ['a VS Code language model in use, vision tier set', { modelVision: 'gpt-4o', modelVisionCapable: true }, true, false],
  ];
  for (const [name, config, lmInUse, expected] of table) {
    it(name, () => assert.equal(readsImages(config, lmInUse), expected));
  }
});
