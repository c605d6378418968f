import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string): Record<string, unknown> => JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;

interface Step { id: string; title: string; description: string; media: { markdown: string }; completionEvents: string[] }
interface Walkthrough { id: string; title: string; description: string; steps: Step[] }

describe('set-up: the "Get started" walkthrough contribution', () => {
  const manifest = read('package.json') as { contributes: { walkthroughs: Walkthrough[]; commands: Array<{ command: string }> } };
  const nls = read('package.nls.json');
  const nlsZh = read('package.nls.zh-cn.json');
  const walkthrough = manifest.contributes.walkthroughs.find((w) => w.id === 'stepwise.gettingStarted');

  it('has the three steps: set up a model, run a first task, review edits', () => {
    assert.ok(walkthrough);
    assert.deepEqual(walkthrough.steps.map((s) => s.id), ['stepwise.setupModel', 'stepwise.firstTask', 'stepwise.reviewEdits']);
  });

  it('every string is translated, every media page exists, every linked command is contributed', () => {
    const commands = new Set(manifest.contributes.commands.map((c) => c.command));
    const keys = [walkthrough!.title, walkthrough!.description, ...walkthrough!.steps.flatMap((s) => [s.title, s.description])];
    for (const key of keys) {
      const name = key.replace(/^%|%$/g, '');
      assert.equal(typeof nls[name], 'string', `${name} in package.nls.json`);
      assert.equal(typeof nlsZh[name], 'string', `${name} in package.nls.zh-cn.json`);
      for (const link of String(nls[name]).matchAll(/\(command:([\w.]+)\)/g)) assert.ok(commands.has(link[1]!), `${link[1]} is contributed`);
    }
    for (const step of walkthrough!.steps) {
      assert.ok(existsSync(path.join(ROOT, step.media.markdown)), step.media.markdown);
      for (const event of step.completionEvents) {
        const command = /^onCommand:(.+)$/.exec(event)?.[1];
        if (command) assert.ok(commands.has(command), `${command} is contributed`);
      }
    }
  });
});
