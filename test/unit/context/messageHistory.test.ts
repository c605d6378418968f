import assert from 'node:assert/strict';
import { initialConversation, MISSING_RESULT, recentTurnsStart, repairToolPairing } from '../../../src/agent/context/messageHistory';
import type { ChatMessage } from '../../../src/agent/model/types';

const call = (id: string) => ({ id, name: 'echo', arguments: '{}' });
const answer = (id: string, content = `r${id}`): ChatMessage => ({ role: 'tool', toolCallId: id, name: 'echo', content });

describe('messageHistory', () => {
  it('returns a valid conversation as the same array', () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 't' }, { role: 'assistant', content: '', toolCalls: [call('a'), call('b')] }, answer('a'), answer('b')];
    assert.equal(repairToolPairing(messages), messages);
  });

  it('answers calls left without a result, reorders answers to call order and drops orphans', () => {
    const messages: ChatMessage[] = [
      answer('zz'),
      { role: 'user', content: 't' },
      { role: 'assistant', content: '', toolCalls: [call('a'), call('b'), call('c')] },
      answer('c'),
      answer('a'),
      { role: 'user', content: 'next' },
      answer('b'),
    ];
    const repaired = repairToolPairing(messages);
    assert.deepEqual(repaired, [
      { role: 'user', content: 't' },
      { role: 'assistant', content: '', toolCalls: [call('a'), call('b'), call('c')] },
      answer('a'),
      { role: 'tool', toolCallId: 'b', name: 'echo', content: MISSING_RESULT, isError: true },
      answer('c'),
      { role: 'user', content: 'next' },
    ]);
  });

  it('finds where the latest turns start', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 't' },
      { role: 'assistant', content: '', toolCalls: [call('a')] },
      answer('a'),
      { role: 'assistant', content: '', toolCalls: [call('b')] },
      answer('b'),
      { role: 'user', content: 'note' },
      { role: 'assistant', content: 'text' },
    ];
    assert.equal(recentTurnsStart(messages, 1), 7);
    assert.equal(recentTurnsStart(messages, 2), 4);
    assert.equal(recentTurnsStart(messages, 10), 2);
    assert.equal(recentTurnsStart(messages, 0), messages.length);
    assert.equal(recentTurnsStart([{ role: 'user', content: 't' }], 2), 1);
  });

  it('starts a resumed run from the old history without its system prompt, then pinned messages and the task', () => {
    const pinned: ChatMessage = { role: 'user', content: 'Plan: ...' };
    const history: ChatMessage[] = [{ role: 'system', content: 'old prompt' }, { role: 'user', content: 'first task' }, { role: 'assistant', content: 'done' }];
    const start = initialConversation({ systemPrompt: 'new prompt', history, pinned: [pinned], task: 'second task' });
    assert.deepEqual(start.messages, [
      { role: 'system', content: 'new prompt' },
      { role: 'user', content: 'first task' },
      { role: 'assistant', content: 'done' },
      pinned,
      { role: 'user', content: 'second task' },
    ]);
    assert.equal(start.messages[0], start.system);
    assert.equal(start.messages.at(-1), start.task);
    assert.equal(start.messages[3], pinned);
  });
});
