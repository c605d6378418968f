import type { RunOutcome, StepStatus } from '../../shared/events';

/** Languages the flow recognises in a task; everything else is written in English. */
export type Language = 'zh' | 'ja' | 'ko' | 'en';

const HAN = /\p{Script=Han}/gu;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const HANGUL = /\p{Script=Hangul}/gu;

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/**
 * The user's language from the task text. Code, paths and identifiers in the task are Latin, so a
 * handful of CJK characters decide: kana means Japanese, Hangul Korean, Han alone Chinese.
 */
export function detectLanguage(task: string): Language {
  const kana = count(task, KANA);
  const hangul = count(task, HANGUL);
  const han = count(task, HAN);
  if (kana > 0 && kana + han >= 2) return 'ja';
  if (hangul >= 2 && hangul >= han) return 'ko';
  if (han >= 2) return 'zh';
  return 'en';
}

const NAMES: Record<Language, string> = {
  zh: 'Simplified Chinese',
  ja: 'Japanese',
  ko: 'Korean',
  en: 'English',
};

/** The sentence every flow prompt carries so plans, summaries and reports come in the user's language. */
export function languageInstruction(language: Language): string {
  return `Write all text meant for the user (plan, step titles and descriptions, summaries, reports) in ${NAMES[language]}. Keep code, file paths and identifiers as they are.`;
}

/** Fixed headings and phrases of the report, per language. */
export interface ReportStrings {
  title: string;
  summary: string;
  filesChanged: string;
  noFilesChanged: string;
  deleted: string;
  findings: string;
  verification: string;
  notVerified: string;
  /** A note beside prose that says the checks pass when a check failed after the last change (`{claim}`: what it says; `{facts}`: which check exited how). */
  claimContradicted: string;
  /** The same when no check ran after the last change. */
  claimUnchecked: string;
  left: string;
  nothingLeft: string;
  steps: string;
  images: string;
  sources: string;
  /** Heading of the tables `python_execute` printed (`show_table`). */
  tables: string;
  status: Record<StepStatus, string>;
  outcome: Record<RunOutcome, string>;
}

const EN: ReportStrings = {
  title: 'Report',
  summary: 'Summary',
  filesChanged: 'Files changed',
  noFilesChanged: 'No files were changed.',
  deleted: 'deleted',
  findings: 'Findings',
  verification: 'How it was verified',
  notVerified: 'Not verified.',
  claimContradicted: 'Note: the text above says the tests or checks pass; {facts}.',
  claimUnchecked: 'Note: the text above says the tests or checks pass; no check ran after the last change.',
  left: 'What is left',
  nothingLeft: 'Nothing.',
  steps: 'Steps',
  images: 'Images',
  sources: 'Sources',
  tables: 'Tables',
  status: {
    pending: 'pending',
    in_progress: 'in progress',
    completed: 'completed',
    failed: 'failed',
    blocked: 'blocked',
    skipped: 'skipped',
    stopped: 'stopped by you',
  },
  outcome: {
    finished: 'finished',
    failed: 'failed',
    cancelled: 'cancelled',
    step_limit: 'stopped at the turn limit',
    stuck: 'stuck',
    budget: 'stopped at the token budget',
    internal: 'stopped by an internal error',
    incomplete: 'incomplete: not every step ran',
    unverified: 'unverified: the checks did not pass',
  },
};

const ZH: ReportStrings = {
  title: '报告',
  summary: '摘要',
  filesChanged: '修改的文件',
  noFilesChanged: '没有修改任何文件。',
  deleted: '已删除',
  findings: '发现',
  verification: '验证方式',
  notVerified: '未验证。',
  claimContradicted: '注意：上文说测试或检查已通过；实际上 {facts}。',
  claimUnchecked: '注意：上文说测试或检查已通过；最后一次修改之后没有运行任何检查。',
  left: '剩余工作',
  nothingLeft: '无。',
  steps: '步骤',
  images: '图片',
  sources: '来源',
  tables: '表格',
  status: {
    pending: '待执行',
    in_progress: '进行中',
    completed: '已完成',
    failed: '失败',
    blocked: '受阻',
    skipped: '已跳过',
    stopped: '已被你停止',
  },
  outcome: {
    finished: '已完成',
    failed: '失败',
    cancelled: '已取消',
    step_limit: '达到轮次上限而停止',
    stuck: '陷入循环',
    budget: '达到令牌预算而停止',
    internal: '因内部错误而停止',
    incomplete: '未完成：并非所有步骤都已运行',
    unverified: '未验证：检查未通过',
  },
};

/** The report's fixed strings in the user's language (English where no table exists yet). */
export function reportStrings(language: Language): ReportStrings {
  return language === 'zh' ? ZH : EN;
}
