import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createTranslator, en, tableFor, zhCN } from '../../../webview-ui/src/strings';

const placeholders = (text: string) => [...text.matchAll(/\{(\d+)\}/g)].map((m) => m[1]).sort();

describe('webview string table', () => {
  it('has a Simplified Chinese string for every English one, with the same placeholders', () => {
    assert.deepEqual(Object.keys(zhCN).sort(), Object.keys(en).sort());
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      assert.ok(zhCN[key].trim().length > 0, key);
      assert.deepEqual(placeholders(zhCN[key]), placeholders(en[key]), key);
    }
  });

  it('picks the table from the language tag', () => {
    assert.equal(tableFor('zh-cn'), zhCN);
    assert.equal(tableFor('zh-CN'), zhCN);
    assert.equal(tableFor('zh-Hans'), zhCN);
    assert.equal(tableFor('en'), en);
    assert.equal(tableFor('de'), en);
    assert.equal(tableFor(''), en);
  });

  it('formats arguments and applies host overrides for known keys only', () => {
    const t = createTranslator('en', { send: 'Go', notAKey: 'x' });
    assert.equal(t('send'), 'Go');
    assert.equal(t('turn', 3, 30), 'Turn 3 of 30');
    assert.equal(t('turn', 3), 'Turn 3 of {1}', 'a missing argument stays visible instead of throwing');
    assert.equal(createTranslator('zh-cn')('turn', 1, 2), '第 1 轮，共 2 轮');
  });

  it('has no string the webview never shows (each key is named in a view, or under a prefix a view builds)', () => {
    const dir = resolve(__dirname, '../../../webview-ui/src');
    const tables = new Set(['stringsEn.ts', 'stringsZhCn.ts', 'setupStrings.ts']);
    const source = readdirSync(dir).filter((f) => f.endsWith('.ts') && !tables.has(f)).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    // Keys built at run time: t(`outcome.${outcome}`), `setupError.${code}`, ...
    const prefixes = [...source.matchAll(/`([A-Za-z]+)\.\$\{/g)].map((m) => `${m[1]}.`);
    const unused = Object.keys(en).filter((key) => !source.includes(`'${key}'`) && !prefixes.some((p) => key.startsWith(p)));
    assert.deepEqual(unused, []);
  });
});
