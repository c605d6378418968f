import { strict as assert } from 'node:assert';
import type { StepRole } from '../../../src/shared/plan';
import { markdownTables } from '../../../src/agent/flow/changeTracker';
import { reportStrings } from '../../../src/agent/flow/language';
import { plannerPrompt } from '../../../src/agent/flow/planner';
import { withTables } from '../../../src/agent/flow/reporter';
import { rolePrompt, toolsForRole } from '../../../src/agent/flow/roles';
import { isDataTask, taskTools } from '../../../src/agent/flow/taskTools';
import { builtinTools } from '../../../src/agent/tools/builtins';
import { pythonExecuteTool } from '../../../src/agent/tools/python/pythonExecute';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';

// A runner that must never be reached: these tests only look at which tools go where.
const registry = new ToolRegistry([...builtinTools(), pythonExecuteTool({ run: () => Promise.reject(new Error('not run here')) })]);

describe('the data analyst: who gets python_execute, what its prompt says, tables in the report', () => {
  const roles: Record<StepRole, { python: boolean; runCommand: boolean; writeFile: boolean }> = {
    coder: { python: false, runCommand: true, writeFile: true },
    researcher: { python: false, runCommand: false, writeFile: false },
    reporter: { python: false, runCommand: false, writeFile: true },
    browser: { python: false, runCommand: false, writeFile: false },
    analyst: { python: true, runCommand: false, writeFile: true },
  };
  for (const [role, expected] of Object.entries(roles) as [StepRole, (typeof roles)[StepRole]][]) {
    it(`role ${role}: python_execute ${expected.python ? 'offered' : 'not offered'}`, () => {
      const names = toolsForRole(registry, role).names();
      assert.equal(names.includes('python_execute'), expected.python);
      assert.equal(names.includes('run_command'), expected.runCommand);
      assert.equal(names.includes('write_file'), expected.writeFile);
      assert.ok(names.includes('finish'));
    });
  }

  const tasks: [string, boolean][] = [
    ['Analyse sales.csv: total by region', true],
    ['Plot the monthly revenue as a chart', true],
    ['Use Python to compute the mean', true],
    ['Load data.xlsx into a dataframe', true],
    ['分析销售数据并生成图表', true],
    ['Fix the typo in README.md', false],
    ['Refactor the data model in src/store.ts', false],
    ['Run the tests and fix what fails', false],
  ];
  for (const [task, data] of tasks) {
    it(`direct run of "${task}": python_execute ${data ? 'offered' : 'left out'}`, () => {
      assert.equal(isDataTask(task), data);
      assert.equal(taskTools(registry, { kind: 'direct', text: task }).names().includes('python_execute'), data);
      assert.equal(taskTools(registry, { kind: 'direct', text: task }).names().includes('run_command'), true);
    });
  }

  it('the analyst prompt carries the data rules; the planner names the analyst only when the tool is there', () => {
    const prompt = rolePrompt('analyst', 'en');
    for (const rule of [/pandas/, /top 10 rows/, /At most one chart per step/, /save_chart/, /Chinese labels render/]) assert.match(prompt, rule);
    assert.match(plannerPrompt(5, 'en', true), /- analyst: analyses data files/);
    assert.doesNotMatch(plannerPrompt(5, 'en'), /analyst/);
    assert.doesNotMatch(rolePrompt('coder', 'en'), /pandas/);
  });

  const texts: { name: string; text: string; tables: string[] }[] = [
    { name: 'one table with its row note', text: 'ok\n| a | b |\n|---|---|\n| 1 | 2 |\n(first 1 of 9 rows)\nCharts saved: x.png', tables: ['| a | b |\n|---|---|\n| 1 | 2 |\n\n(first 1 of 9 rows)'] },
    { name: 'two tables', text: '| a |\n|---|\n| 1 |\ntext\n| b |\n| :-: |\n| 2 |', tables: ['| a |\n|---|\n| 1 |', '| b |\n| :-: |\n| 2 |'] },
    { name: 'pipes without a separator are not a table', text: '| not | a table |\n| 1 | 2 |', tables: [] },
  ];
  for (const c of texts) it(`markdownTables: ${c.name}`, () => assert.deepEqual(markdownTables(c.text), c.tables));

  it('withTables puts the tables before the findings (and adds nothing without tables)', () => {
    const strings = reportStrings('en');
    const report = `# Report\n\n## ${strings.summary}\n\ns\n\n## ${strings.findings}\n\n- f\n`;
    assert.equal(withTables(report, [], strings), report);
    assert.equal(withTables(report, ['| a |\n|---|\n| 1 |'], strings), `# Report\n\n## ${strings.summary}\n\ns\n\n## Tables\n\n| a |\n|---|\n| 1 |\n\n## ${strings.findings}\n\n- f\n`);
  });
});
