import { en, type StringKey } from './stringsEn';
import { zhCN } from './stringsZhCn';

export { en, zhCN, type StringKey };

/** Looks up and formats a string. */
export type Translate = (key: StringKey, ...args: (string | number)[]) => string;

/** The table for a language tag: any `zh*` tag (zh-CN, zh-cn, zh-Hans) gets Chinese, anything else English. */
export function tableFor(lang: string): Record<StringKey, string> {
  return lang.trim().toLowerCase().startsWith('zh') ? zhCN : en;
}

/**
 * A translator for `lang`, with optional host-provided overrides (unknown keys ignored).
 * Missing arguments leave their placeholder visible rather than throwing.
 */
export function createTranslator(lang: string, overrides: Record<string, string> = {}): Translate {
  const table: Record<string, string> = { ...tableFor(lang) };
  for (const [key, value] of Object.entries(overrides)) if (key in en) table[key] = value;
  return (key, ...args) => (table[key] ?? en[key]).replace(/\{(\d+)\}/g, (match, i: string) => (args[Number(i)] !== undefined ? String(args[Number(i)]) : match));
}

/**
 * The plain words for an error kind (a model error's or a connection test's `code`): the
 * `setupError.*` strings the set-up view shares, else the `errorKind.*` ones; undefined for kinds
 * without words of their own. Views show these words, never the code.
 */
export function errorWords(t: Translate, code: string | undefined): string | undefined {
  if (code === undefined || code === 'other') return undefined;
  const key = [`setupError.${code}`, `errorKind.${code}`].find((k) => k in en);
  return key ? t(key as StringKey) : undefined;
}

/** What the user can do next after a run ended this way: the error's own advice, else the outcome's; undefined after success. */
export function nextAction(t: Translate, outcome: string, code: string | undefined): string | undefined {
  const key = [`errorNext.${code ?? ''}`, `outcomeNext.${outcome}`].find((k) => k in en);
  return key ? t(key as StringKey) : undefined;
}
