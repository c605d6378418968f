/** Text cut to a size, keeping the head and the tail, with a marker that says what was dropped. */
export interface Truncated {
  text: string;
  omittedChars: number;
}

/**
 * Keeps the first and last parts of `text` within `maxChars` (head gets 40%, tail 60%: errors and
 * summaries usually come last), cutting at line ends where one is close.
 */
export function truncateHeadTail(text: string, maxChars: number, hint = ''): Truncated {
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
  const marker = `\n[... ${omittedChars} characters omitted${hint ? `; ${hint}` : ''} ...]\n`;
  return { text: head + marker + tail, omittedChars };
}
