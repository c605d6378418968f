import { strict as assert } from 'node:assert';
import { MarkedLines, type MarkedPiece } from '../../../../src/node/python/markedLines';

const MARK = '\u001eMARK-1';

/** Feeds `chunks` and joins the text pieces, listing markers as `<payload>`. */
function feed(chunks: string[]): string {
  const lines = new MarkedLines(MARK);
  const pieces: MarkedPiece[] = chunks.flatMap((c) => lines.push(c));
  return pieces.map((p) => (typeof p === 'string' ? p : `<${p.marker}>`)).join('');
}

describe('MarkedLines (the Python driver protocol on stdout)', () => {
  const whole = `hello\nworld\n\n${MARK} {"status":"ok"}\nnext`;
  const cases: { name: string; chunks: string[]; expected: string }[] = [
    { name: 'in one chunk', chunks: [whole], expected: 'hello\nworld\n<{"status":"ok"}>next' },
    { name: 'one character at a time', chunks: [...whole], expected: 'hello\nworld\n<{"status":"ok"}>next' },
    { name: 'split inside the mark', chunks: [whole.slice(0, 15), whole.slice(15)], expected: 'hello\nworld\n<{"status":"ok"}>next' },
    { name: 'output without a final newline', chunks: [`no newline\n${MARK} {}\n`], expected: 'no newline<{}>' },
    { name: 'a mark-like text that is not the mark', chunks: ['\u001eMARK-2 x\n', 'y'], expected: '\u001eMARK-2 x\ny' },
    { name: 'two runs in one chunk', chunks: [`a\n${MARK} 1\nb\n${MARK} 2\n`], expected: 'a<1>b<2>' },
  ];
  for (const c of cases) it(c.name, () => assert.equal(feed(c.chunks), c.expected));
});
