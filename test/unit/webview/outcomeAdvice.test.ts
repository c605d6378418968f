import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as modelErrors from '../../../src/agent/model/modelErrors';
import { errorWordsCli, nextActionCli, outcomeWordsCli } from '../../../src/cli/cliAdvice';
import { ErrorCode } from '../../../src/shared/errorKinds';
import { RunOutcome } from '../../../src/shared/events';
import { createTranslator, errorWords, nextAction } from '../../../webview-ui/src/strings';

const SRC = resolve(__dirname, '../../../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * A code shown as itself: an identifier with an underscore anywhere ("rate_limit"); a one-word code
 * ("auth", "model") alone, as a label ("auth: …") or in backticks. Such words may appear in a sentence.
 */
function showsCode(text: string, code: string): boolean {
  if (code.includes('_')) return text.includes(code);
  return text.trim() === code || new RegExp(`(^|\\s)${code}:`).test(text) || text.includes(`\`${code}\``);
}

describe('error codes: every code the core can end a run with is known', () => {
  it('each ModelError class has a code in ErrorCode', () => {
    const classes = Object.values(modelErrors).filter((v): v is typeof modelErrors.ModelError => typeof v === 'function' && (v === modelErrors.ModelError || v.prototype instanceof modelErrors.ModelError));
    assert.ok(classes.length >= 7, 'the model error classes were found');
    for (const Cls of classes) assert.ok(ErrorCode.options.includes(new Cls('x').code as ErrorCode), `${Cls.name}: ${new Cls('x').code}`);
  });

  it('each literal code of an error event in src/ is in ErrorCode', () => {
    const emitted = new Set<string>();
    for (const file of sources(SRC)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/type: 'error', code: '([a-z_]+)'/g)) emitted.add(m[1]!);
    }
    assert.ok(emitted.size >= 5, `found the emitted codes: ${[...emitted].join(', ')}`);
    for (const code of emitted) assert.ok(ErrorCode.options.includes(code as ErrorCode), `emitted but unknown: ${code}`);
  });
});

describe('the outcome card’s words and next action, per code and language', () => {
  for (const lang of ['en', 'zh-cn']) {
    const t = createTranslator(lang);
    for (const code of ErrorCode.options) {
      it(`${lang} · ${code}: plain words and a next action, never the code`, () => {
        const words = errorWords(t, code);
        const next = nextAction(t, 'failed', code);
        assert.ok(words && words.trim().length > 3, `words for ${code}`);
        assert.ok(next && next.trim().length > 3, `next action for ${code}`);
        assert.ok(!showsCode(words, code) && !showsCode(next, code), `${words} / ${next}`);
        if (lang === 'zh-cn') assert.notEqual(next, nextAction(createTranslator('en'), 'failed', code), 'translated');
      });
    }
    for (const outcome of RunOutcome.options) {
      it(`${lang} · outcome ${outcome}: a title, and a next action unless it finished`, () => {
        const title = t(`outcome.${outcome}`);
        assert.ok(title && !showsCode(title, outcome), title);
        const next = nextAction(t, outcome, undefined);
        if (outcome === 'finished') assert.equal(next, undefined);
        else assert.ok(next && !showsCode(next, outcome), `${outcome}: ${next}`);
      });
    }
  }
});

describe('the CLI’s words and next action, per code and outcome', () => {
  for (const code of ErrorCode.options) {
    it(`${code}: words and a next action, never the code`, () => {
      const words = errorWordsCli(code);
      const next = nextActionCli('failed', code, 'task-7');
      assert.notEqual(words, 'Error', `words for ${code}`);
      assert.ok(next, `next action for ${code}`);
      assert.ok(!showsCode(words, code) && !showsCode(next, code), `${words} / ${next}`);
      assert.ok(!next.includes('{id}'), 'the task id is filled in');
    });
  }
  for (const outcome of RunOutcome.options) {
    it(`outcome ${outcome}: words, and a next action unless it finished`, () => {
      assert.ok(!showsCode(outcomeWordsCli(outcome), outcome));
      const next = nextActionCli(outcome, undefined, 'task-7');
      if (outcome === 'finished') assert.equal(next, undefined);
      else assert.ok(next && !showsCode(next, outcome), `${outcome}: ${next}`);
    });
  }
  it('an unknown code gets a generic word, not itself', () => assert.equal(errorWordsCli('brand_new'), 'Error'));
});
