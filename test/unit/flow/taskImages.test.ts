import assert from 'node:assert/strict';
import { conversationFromEvents } from '../../../src/agent/context/conversationFromEvents';
import { runTask } from '../../../src/agent/flow/runTask';
import { attachTaskImages, checkTaskImages, IMAGE_READER_PROMPT, sniffImageType, type CheckedImage } from '../../../src/agent/flow/taskImages';
import { ModelAuthError } from '../../../src/agent/model/modelErrors';
import type { Model, ModelRequest } from '../../../src/agent/model/types';
import { MAX_TASK_IMAGE_BYTES, type TaskImage } from '../../../src/shared/taskImages';
import { ScriptedModel } from '../../support/scriptedModel';
import { call, finish, flowModel, harness, requestsOf } from './flowHarness';

const b64 = (...bytes: number[]): string => Buffer.from([...bytes, 0, 0, 0, 0, 0, 0, 0, 0]).toString('base64');
const PNG = b64(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
const JPEG = b64(0xff, 0xd8, 0xff, 0xe0);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00').toString('base64');
const WEBP = Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8 ').toString('base64');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>').toString('base64');
const image = (data: string, name = 'a.png', mimeType: TaskImage['mimeType'] = 'image/png'): TaskImage => ({ name, mimeType, data });

describe('task images: the bytes decide', () => {
  const table: Array<[string, string, string | undefined]> = [
    ['PNG', PNG, 'image/png'],
    ['JPEG', JPEG, 'image/jpeg'],
    ['GIF', GIF, 'image/gif'],
    ['WebP', WEBP, 'image/webp'],
    ['SVG (script-capable, refused)', SVG, undefined],
    ['text', Buffer.from('hello world, not an image').toString('base64'), undefined],
    ['not base64', '!!!!not-base64!!!!', undefined],
  ];
  for (const [what, data, expected] of table) {
    it(`${what} -> ${expected ?? 'refused'}`, () => assert.equal(sniffImageType(data), expected));
  }

  it('ignores the claimed type, refuses what is not an image, too large or one too many', () => {
    const big = Buffer.alloc(MAX_TASK_IMAGE_BYTES + 1);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(big);
    const { accepted, refused } = checkTaskImages([
      image(JPEG, 'claims-png.png', 'image/png'),
      image(SVG, 'evil.png'),
      image(big.toString('base64'), 'huge.png'),
      image(PNG, 'b.png'), image(PNG, 'c.png'), image(PNG, 'd.png'), image(PNG, 'e.png'),
    ]);
    assert.deepEqual(accepted.map((i) => [i.name, i.mimeType]), [['claims-png.png', 'image/jpeg'], ['b.png', 'image/png'], ['c.png', 'image/png'], ['d.png', 'image/png']]);
    assert.deepEqual(refused, ['evil.png: not a PNG, JPEG, GIF or WebP image', 'huge.png: larger than 5 MB', 'e.png: more than 4 images']);
  });
});

describe('task images: read once by the vision model', () => {
  const checked: CheckedImage[] = [{ name: 'shot.png', mimeType: 'image/png', data: PNG, bytes: 16 }];
  const signal = new AbortController().signal;
  const textOnly = (): Model => new ScriptedModel([], 'text-only');

  it('sends the images as image parts to the vision tier and attaches its description to the task', async () => {
    const vision = new ScriptedModel([{ text: 'Image 1 (shot.png): a stack trace: TypeError at line 3.' }], 'gpt-vision');
    const result = await attachTaskImages('Fix this error', checked, { default: textOnly(), vision }, signal);
    const sent = vision.requests[0]!;
    assert.equal(sent.messages[0]!.content, IMAGE_READER_PROMPT);
    const user = sent.messages[1] as Extract<ModelRequest['messages'][number], { role: 'user' }>;
    assert.deepEqual(user.images, [{ mimeType: 'image/png', data: PNG }]);
    assert.match(user.content, /^The task: Fix this error/);
    assert.equal(result.notice.level, 'info');
    assert.match(result.task, /^Fix this error\n\n<attached-context>\n<attached-images>\nThe user attached 1 image\(s\); gpt-vision \(a vision model\) described them:\n1\. shot\.png \(image\/png, 1 KB\)\n\nImage 1 \(shot\.png\): a stack trace: TypeError at line 3\.\n<\/attached-images>\n<\/attached-context>$/);
  });

  it('puts the images inside an existing attached context (after @-mentions)', async () => {
    const vision = new ScriptedModel([{ text: 'A chart.' }], 'v');
    const task = 'Look\n\n<attached-context>\nThe user attached this context to the task with @-mentions:\n\nfile\n</attached-context>';
    const result = await attachTaskImages(task, checked, { default: textOnly(), vision }, signal);
    assert.equal(result.task.match(/<attached-context>/g)?.length, 1);
    assert.match(result.task, /file\n\n<attached-images>\n[\s\S]*A chart\.\n<\/attached-images>\n<\/attached-context>$/);
  });

  it('uses the default model when it reads images and there is no vision tier', async () => {
    const main = Object.assign(new ScriptedModel([{ text: 'A diagram.' }], 'gpt-main'), { vision: true });
    const result = await attachTaskImages('Explain', checked, { default: main }, signal);
    assert.equal(main.requests.length, 1);
    assert.match(result.task, /gpt-main \(a vision model\) described them/);
  });

  it('says so, in the task and to the user, when no model reads images', async () => {
    const model = textOnly();
    const result = await attachTaskImages('Explain', checked, { default: model }, signal);
    assert.equal((model as ScriptedModel).requests.length, 0);
    assert.equal(result.notice.level, 'warning');
    assert.match(result.notice.message, /no configured model reads images \(set stepwise\.models\.vision/);
    assert.match(result.task, /no model that can read images is configured, so their content is unknown:\n1\. shot\.png/);
  });

  it('says so when the vision model fails, and the task goes on', async () => {
    const vision = new ScriptedModel([new ModelAuthError('401 bad key')], 'v');
    const result = await attachTaskImages('Explain', checked, { default: textOnly(), vision }, signal);
    assert.equal(result.notice.level, 'warning');
    assert.match(result.notice.message, /could not read the attached image\(s\): 401 bad key/);
    assert.match(result.task, /the vision model could not read them \(401 bad key\)/);
  });

  it('runTask without a model that reads images: a warning notice, and the task says so', async () => {
    const model = flowModel({ coordinator: [call('route', { mode: 'direct', reason: 'one question' })], direct: [finish('I cannot see it.')] });
    const h = harness(model, { task: 'What went wrong?', taskImages: checked });
    await runTask(h.options);
    assert.match(h.of('notice')[0]!.message, /no configured model reads images/);
    assert.equal(h.of('task_images')[0]!.reader, undefined);
    assert.match(JSON.stringify(requestsOf(model, 'direct')[0]!.messages), /no model that can read images is configured/);
  });

  it('a resumed conversation keeps the description (conversationFromEvents)', () => {
    const messages = conversationFromEvents([
      { type: 'run_started', task: 'What went wrong?', workspace: '/w', model: 'm' },
      { type: 'task_images', images: [{ name: 'a.png', mimeType: 'image/png', bytes: 3 }], reader: 'v', section: 'A TypeError.' },
      { type: 'assistant_message', text: 'A TypeError.', toolCalls: [] },
    ]);
    assert.equal(messages[0]!.content, 'What went wrong?\n\n<attached-context>\n<attached-images>\nA TypeError.\n</attached-images>\n</attached-context>');
  });

  it('runTask: a task_images event, the description in every later request, and no pixels to the text-only model', async () => {
    const model = flowModel({
      coordinator: [call('route', { mode: 'direct', reason: 'one question' })],
      direct: [finish('It is a TypeError.')],
    });
    const vision = new ScriptedModel([{ text: 'VISION-DESCRIPTION' }], 'v');
    const h = harness(model, { task: 'What went wrong?', models: { default: model, vision }, taskImages: checked });
    const result = await runTask(h.options);
    assert.equal(result.outcome, 'finished');
    assert.deepEqual(h.of('notice'), [], 'nothing to warn about');
    assert.deepEqual(h.of('task_images'), [{
      type: 'task_images', images: [{ name: 'shot.png', mimeType: 'image/png', bytes: 16 }], reader: 'v',
      section: 'The user attached 1 image(s); v (a vision model) described them:\n1. shot.png (image/png, 1 KB)\n\nVISION-DESCRIPTION',
    }]);
    for (const caller of ['coordinator', 'direct'] as const) {
      const request = requestsOf(model, caller)[0]!;
      assert.match(JSON.stringify(request.messages), /VISION-DESCRIPTION/, `${caller} sees the description`);
      assert.ok(request.messages.every((m) => m.role !== 'user' || !m.images), `${caller} gets no pixels`);
    }
  });
});
