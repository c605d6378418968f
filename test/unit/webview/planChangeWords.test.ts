import assert from 'node:assert/strict';
import { planChangeCli } from '../../../src/cli/cliAdvice';
import { PlanChange } from '../../../src/shared/events';
import { planChangeWords } from '../../../webview-ui/src/planChangeWords';
import { createTranslator } from '../../../webview-ui/src/strings';

const en = createTranslator('en');
const zh = createTranslator('zh-cn');

describe('plan updates in words: the panel (en, zh-cn) and the CLI', () => {
  // [the event's reason, its change (absent: an older history), panel in English, panel in Chinese, CLI]
  const rows: Array<[string, PlanChange | undefined, string, string, string]> = [
    ['plan edited in review', { kind: 'edited' }, 'Plan edited in review', '计划已在审阅中修改', 'Plan edited in review'],
    ['plan updated: merge the fix and the notes', { kind: 'revised', why: 'merge the fix and the notes' },
      'Plan revised: merge the fix and the notes', '计划已修订：merge the fix and the notes', 'Plan revised: merge the fix and the notes'],
    ['plan updated: split "Fix" (step budget reached): too big', { kind: 'split', step: 'Fix', why: 'too big' },
      'Split “Fix” into smaller steps (its token budget ran out): too big', '已将“Fix”拆分为更小的步骤（其令牌预算已用完）：too big',
      'Split "Fix" into smaller steps (its token budget ran out): too big'],
    ['plan updated: retry "Fix" differently: use edit_file', { kind: 'retry_differently', step: 'Fix', why: 'use edit_file' },
      'Trying “Fix” again, differently: use edit_file', '换一种方式重试“Fix”：use edit_file', 'Trying "Fix" again, differently: use edit_file'],
    ['plan updated: skipped "Notes": optional', { kind: 'skipped', step: 'Notes', why: 'optional' },
      'Skipped “Notes”: optional', '已跳过“Notes”：optional', 'Skipped "Notes": optional'],
    ['retrying step "Fix"', { kind: 'retrying', step: 'Fix' }, 'Retrying “Fix”', '正在重试“Fix”', 'Retrying "Fix"'],
    ['resuming step "Fix"', { kind: 'resuming', step: 'Fix' }, 'Resuming at “Fix”', '从“Fix”继续', 'Resuming at "Fix"'],
    // Older histories: the reason alone, never "Plan updated: plan updated: …".
    ['plan updated: merge the fix and the notes', undefined, 'Plan updated: merge the fix and the notes', '计划已更新：merge the fix and the notes', 'Plan updated: merge the fix and the notes'],
    ['retrying step "Fix"', undefined, 'Plan updated: retrying step "Fix"', '计划已更新：retrying step "Fix"', 'Plan updated: retrying step "Fix"'],
  ];
  for (const [reason, change, panelEn, panelZh, cli] of rows) {
    it(`${change?.kind ?? 'older history'}: ${reason}`, () => {
      if (change) assert.deepEqual(PlanChange.parse(change), change);
      const item = { text: reason, ...(change ? { change } : {}) };
      assert.equal(planChangeWords(en, item), panelEn);
      assert.equal(planChangeWords(zh, item), panelZh);
      assert.equal(planChangeCli({ reason, ...(change ? { change } : {}) }), cli);
    });
  }

  it('has a row for every kind of change', () => {
    const kinds = new Set(rows.map(([, change]) => change?.kind).filter(Boolean));
    assert.deepEqual([...kinds].sort(), [...PlanChange.shape.kind.options].sort());
  });
});
