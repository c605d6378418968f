import assert from 'node:assert/strict';
import { detectLanguage } from '../../../src/agent/flow/language';
import { runTask } from '../../../src/agent/flow/runTask';
import { call, finish, flowModel, harness, requestsOf } from './flowHarness';

describe('detectLanguage', () => {
  it('tells Chinese, Japanese and Korean from English, whatever code the task quotes', () => {
    assert.equal(detectLanguage('给 src/app.ts 的 parse() 加上输入校验'), 'zh');
    assert.equal(detectLanguage('Fix the bug in parse()'), 'en');
    assert.equal(detectLanguage('parse() のバグを直して'), 'ja');
    assert.equal(detectLanguage('parse() 버그를 고쳐 주세요'), 'ko');
    assert.equal(detectLanguage('Rename 变 to x'), 'en', 'one stray character is not a language');
    assert.equal(detectLanguage(''), 'en');
  });
});

describe('planning flow: the user language', () => {
  it('plans, summarises and reports a Chinese task in Chinese', async () => {
    const task = '给 src/app.ts 的 parse() 加上输入校验，并写一份说明文档。';
    const model = flowModel({
      coordinator: [call('route', { mode: 'plan', reason: '修改代码并写文档' })],
      planner: [
        call('create_plan', {
          goal: '为 parse() 加上输入校验并写说明',
          thought: '先改代码，再写文档。',
          steps: [
            { title: '加上校验', description: '在 parse() 里拒绝空输入。', role: 'coder' },
            { title: '写说明', description: '写 docs/校验.md。', role: 'reporter' },
          ],
        }),
      ],
      'step:加上校验': [
        call('write_file', { path: 'src/app.ts', content: 'export function parse(s: string) { if (!s) throw new Error(); return JSON.parse(s); }\n' }),
        finish('在 parse() 中加入了空输入检查。'),
      ],
      'step:写说明': [call('write_file', { path: 'docs/校验.md', content: '# 校验\n' }), finish('写好了 docs/校验.md。')],
      updater: () => call('keep_plan', {}),
      report: [call('write_report', { summary: 'parse() 现在会拒绝空输入。', findings: ['原来没有任何检查'], verification: '', left: [] })],
    });
    const h = harness(model, { task, files: { 'src/app.ts': 'export function parse(s: string) { return JSON.parse(s); }\n' } });
    const result = await runTask(h.options);

    assert.equal(result.outcome, 'finished', result.reason);
    for (const caller of ['planner', 'updater', 'report', 'step:加上校验', 'step:写说明'] as const) {
      const request = requestsOf(model, caller)[0]!;
      assert.match(request.messages[0]!.content, /in Simplified Chinese\./, `${caller} is told to write Chinese`);
    }
    assert.match(result.reportPath!, /^\.stepwise\/reports\/20250102-030405-为-parse-加上输入校验并写说明\.md$/);
    const report = h.workspace.text(result.reportPath!)!;
    assert.match(report, /^# 报告: 为 parse\(\) 加上输入校验并写说明/);
    for (const heading of ['## 摘要', '## 步骤', '## 修改的文件', '## 发现', '## 验证方式', '## 剩余工作']) {
      assert.ok(report.includes(`\n${heading}\n`), `report has ${heading}:\n${report}`);
    }
    assert.ok(!/## (Summary|Files changed|Findings)/.test(report));
    assert.match(report, /1\. \*\*加上校验\*\* \(已完成\)/);
    assert.match(report, /## 验证方式\n\n未验证。/);
    assert.ok(report.includes('- [docs/校验.md](../../docs/%E6%A0%A1%E9%AA%8C.md)'));
  });

  it('tells English tasks to write English', async () => {
    const model = flowModel({
      planner: [call('create_plan', { goal: 'G', thought: '', steps: [{ title: 'S', description: 'D', role: 'researcher' }] })],
      'step:S': [finish('Done.')],
      updater: [call('keep_plan', {})],
      report: [call('write_report', { summary: 'Done.', findings: [], verification: '', left: [] })],
    });
    const h = harness(model, { task: 'Look around', planMode: 'always' });
    await runTask(h.options);
    assert.match(requestsOf(model, 'planner')[0]!.messages[0]!.content, /in English\./);
  });
});
