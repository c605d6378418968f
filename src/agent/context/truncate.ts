/** Text cut to a size, keeping the head and the tail, with a marker that says what was dropped. */
export interface Truncated {
  text: string;
  omittedChars: number;
}

/** The lines a cut left out, 1-based and inclusive (partly shown lines count as left out). */
export interface OmittedSpan {
  firstLine: number;
  lastLine: number;
  totalLines: number;
}

/** The marker's advice: fixed text, or worded from the lines that were left out. */
export type CutHint = string | ((span: OmittedSpan) => string);

/**
 * Keeps the first and last parts of `text` within `maxChars` (head gets 40%, tail 60%: errors and
 * summaries usually come last), cutting at line ends where one is close.
 */
export function truncateHeadTail(text: string, maxChars: number, hint: CutHint = ''): Truncated {
  if (text.length <= maxChars) return { text, omittedChars: 0 };
  const headBudget = Math.floor(maxChars * 0.4);
  const tailBudget = maxChars - headBudget;
  let head = text.slice(0, headBudget);
  const headNl = head.lastIndexOf('\n');
  if (headNl > headBudget * 0.8) head = head.slice(0, headNl + 1);
  let tail = text.slice(text.length - tailBudget);
  const tailNl = tail.indexOf('\n');
  if (tailNl >= 0 && tailNl < tailBudget * 0.2) tail = tail.slice(tailNl + 1);
  const omittedChars = text.length - head.length - tail.length;
  const advice = typeof hint === 'string' ? hint : hint(omittedSpan(text, head, tail));
  const marker = `\n[... ${omittedChars} characters omitted${advice ? `; ${advice}` : ''} ...]\n`;
  return { text: head + marker + tail, omittedChars };
}

function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Which lines of `text` are not wholly in `head` or `tail`. */
function omittedSpan(text: string, head: string, tail: string): OmittedSpan {
  const lines = (part: string) => (part === '' ? 0 : newlines(part) + (part.endsWith('\n') ? 0 : 1));
  const totalLines = lines(text);
  const tailStartsLine = tail === '' || text[text.length - tail.length - 1] === '\n';
  const wholeTailLines = Math.max(0, lines(tail) - (tailStartsLine ? 0 : 1));
  const firstLine = newlines(head) + 1;
  return { firstLine, lastLine: Math.max(firstLine, totalLines - wholeTailLines), totalLines };
}
