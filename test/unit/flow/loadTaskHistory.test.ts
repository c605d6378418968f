import assert from 'node:assert/strict';
import { loadTaskHistory, type ConversationCut } from '../../../src/agent/flow/resumeTask';
import type { EventEnvelope } from '../../../src/shared/events';

/** A run of 10 envelopes (seq 0..9), each a text delta naming its seq. */
const RUN: EventEnvelope[] = Array.from({ length: 10 }, (_, seq) => ({ v: 1, seq, runId: 'r', ts: seq, event: seq === 0 ? { type: 'run_started', task: 't', workspace: '/w', model: 'm' } : { type: 'text_delta', text: String(seq) } }));

describe('loadTaskHistory: which stored events make the conversation', () => {
  const cases: Array<{ name: string; cut: ConversationCut | undefined; kept: number[] }> = [
    { name: 'no restore: everything', cut: undefined, kept: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] },
    { name: 'restored to seq 4: nothing from 4 on', cut: 4, kept: [0, 1, 2, 3] },
    { name: 'restored to 4, then a follow-up from 7: its events stay', cut: [[4, 7]], kept: [0, 1, 2, 3, 7, 8, 9] },
    { name: 'a window and a later restore', cut: [[2, 4], [8, Infinity]], kept: [0, 1, 4, 5, 6, 7] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const events = await loadTaskHistory(async () => RUN, 'r', async () => c.cut);
      assert.deepEqual(events.map((e) => (e.type === 'run_started' ? 0 : Number((e as { text: string }).text))), c.kept);
    });
  }
});
