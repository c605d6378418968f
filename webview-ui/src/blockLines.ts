import { diffLines } from '../../src/shared/lineDiff';
import { h } from './dom';

/**
 * One search/replace block as a diff: lines the block keeps are context (`  `), only the lines it
 * really changes are removed (`-`) and added (`+`), by the same line diff the edit tools use.
 */
export function blockLines(search: string, replace: string): HTMLElement[] {
  const a = search === '' ? [] : search.split('\n');
  const b = replace === '' ? [] : replace.split('\n');
  const row = (cls: string, sign: string, line: string) => h('div', { class: cls }, `${sign} ${line}`);
  const out: HTMLElement[] = [];
  let at = 0;
  for (const change of diffLines(a, b)) {
    for (; at < change.aStart; at++) out.push(row('diff-context', ' ', a[at]!));
    for (let i = change.aStart; i < change.aEnd; i++) out.push(row('diff-del', '-', a[i]!));
    for (let i = change.bStart; i < change.bEnd; i++) out.push(row('diff-add', '+', b[i]!));
    at = change.aEnd;
  }
  for (; at < a.length; at++) out.push(row('diff-context', ' ', a[at]!));
  return out;
}
