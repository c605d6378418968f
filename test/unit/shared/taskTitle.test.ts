import { strict as assert } from 'node:assert';
import { withAttachedSection } from '../../../src/shared/attachedContext';
import { taskTitle } from '../../../src/shared/taskTitle';

const selection = withAttachedSection('Fix toKelvin', 'selection', 'Lines 3-9 of `src/convert.js`:\n```js\nexport const toKelvin = (c) => c + 273;\n```');

/** Task text → the title every view and the CLI show. */
const ROWS: Array<[string, string]> = [
  ['Fix toKelvin', 'Fix toKelvin'],
  [selection, 'Fix toKelvin'],
  ['  \n\nExplain what this project does and how it is organised', 'Explain what this project does and how it is organised'],
  ['Add a section to the README on how to run the tests, then run them and fix whatever fails', 'Add a section to the README on how to run the tests, then…'],
  ['## Fix the **parser**\nIt drops the last token.', 'Fix the parser'],
  ['- rename `foo` to `bar` in @src/a.ts', 'rename foo to bar in src/a.ts'],
  ['See [the docs](https://example.com/docs) first', 'See the docs first'],
  ['```\ncode only\n```\nthen explain it', 'then explain it'],
  ['把 README 里的安装说明翻译成英文，并且检查每一个链接是否仍然有效，如果无效就换成新的地址然后提交', '把 README 里的安装说明翻译成英文，并且检查每一个链接是否仍…'],
  ['Supercalifragilisticexpialidocious'.repeat(3), `${'Supercalifragilisticexpialidocious'.repeat(3).slice(0, 59)}…`],
  ['', ''],
];

describe('taskTitle', () => {
  for (const [task, title] of ROWS) {
    it(JSON.stringify(task.slice(0, 40)), () => assert.equal(taskTitle(task), title));
  }
  it('never exceeds the cap', () => {
    for (const [task] of ROWS) assert.ok(Array.from(taskTitle(task)).length <= 60, taskTitle(task));
  });
});
